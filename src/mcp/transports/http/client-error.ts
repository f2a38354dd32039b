import type { Duplex } from 'node:stream';
import { HttpRpcError } from './responses.js';

/** Node's parser error codes and the status each is answered with (as Node's own default handler). */
const STATUS_OF: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large'],
};

/**
 * Answers a request Node's HTTP parser refused before any handler ran (the `clientError`
 * event): headers over Node's `maxHeaderSize` (16 KiB by default, e.g. a 20 KiB
 * `Mcp-Session-Id`) get 431, a request that timed out 408, any other malformed request 400,
 * each with a JSON-RPC error body (`id: null`, code -32000) like every other refusal of the
 * endpoint, then the connection is closed. Node's default handler sends the same statuses
 * with an empty body.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const headersSent = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason] = STATUS_OF[error.code ?? ''] ?? [400, 'Bad Request'];
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: { code: HttpRpcError.SERVER_ERROR, message: `${reason}: the request could not be read (${status})` },
  });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}
