import type { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/**
 * JSON-RPC 2.0 §5.1: JSON that is not a JSON-RPC message gets a -32600 Invalid Request
 * with `id: null`. The SDK's stdio transport only reports such lines through `onerror`;
 * this answers them so a client sees why its message was refused. (Lines that are not
 * JSON at all are skipped by the SDK's reader on purpose, as stray output, and never
 * reach here.) Returns true when `error` was such a line.
 */
export function answerInvalidMessage(transport: StdioServerTransport, error: Error): boolean {
  if (error.name !== 'ZodError' && error.constructor?.name !== 'ZodError') return false;
  const reply = {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message.' },
  };
  transport.send(reply as never).catch(() => {});
  return true;
}
