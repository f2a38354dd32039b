import {
  BODY_CUT_OFF,
  bodyHeaderRefusal,
  parseJsonRpcBody,
  payloadTooLarge,
  type HttpRefusal,
} from '../http/checks.js';
import type { RefusalResponse } from '../../wire/json-rpc-shape.js';

/** A web request's body as the endpoint reads it: the parsed message, or why it was refused. */
export type FetchBody = { body: unknown } | { refusal: HttpRefusal } | { response: RefusalResponse };

/** Reads at most `limit` bytes of `stream`; undefined when there were more. @throws when the stream fails. */
async function readLimited(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads and parses a POST's JSON body once, with the same refusals as `HttpMcpServer` (see
 * `transports/http/json-body.ts`): 415 for a Content-Type other than `application/json` (UTF-8) or a
 * compressed body, 413 for more than `limit` bytes (declared or received), 400 for a body cut off,
 * malformed JSON (-32700) or JSON that is not one JSON-RPC message (-32600). The runtime owns the
 * connection, so an oversized body is not drained first as on Node.
 */
export async function readFetchBody(request: Request, limit: number): Promise<FetchBody> {
  const refused = bodyHeaderRefusal(
    request.headers.get('content-type') ?? undefined,
    request.headers.get('content-encoding') ?? undefined,
  );
  if (refused) return { refusal: refused };
  if (Number(request.headers.get('content-length')) > limit) return { refusal: payloadTooLarge(limit) };
  let bytes: Uint8Array | undefined;
  try {
    bytes = request.body ? await readLimited(request.body, limit) : new Uint8Array(0);
  } catch {
    return { refusal: BODY_CUT_OFF };
  }
  if (!bytes) return { refusal: payloadTooLarge(limit) };
  return parseJsonRpcBody(new TextDecoder().decode(bytes));
}
