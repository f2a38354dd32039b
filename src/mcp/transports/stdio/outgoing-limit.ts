import { ProtocolErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Default largest line this server writes on stdio: 8 MiB. The official SDK clients buffer
 * at most 10 MiB per line and drop the whole connection beyond that, so the default leaves
 * room below their cap.
 */
export const DEFAULT_STDIO_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** The sentence a client reads when a message was too large to send. */
export function oversizeMessage(what: string, bytes: number, limit: number): string {
  return (
    `The ${what} is ${mib(bytes)} (${bytes} bytes), over this server's stdio message limit of ${mib(limit)} ` +
    `(${limit} bytes), so it was not sent: MCP clients drop a stdio connection on lines over 10 MiB. ` +
    `Ask for less (a page, a range, a narrower query), or, if your client accepts larger lines, raise the ` +
    `server's maxMessageBytes option.`
  );
}

/**
 * What to send instead of a message whose JSON line is `bytes` long, over `limit`:
 * - a `tools/call` result -> the same result shape with `isError: true` and one text block
 *   saying how big it was and what to do (MCP "Tools / Error Handling": a tool's failure is
 *   a result the model can read), keeping the era's result keys (`resultType`, `_meta`, ...);
 * - any other result, or an error response -> JSON-RPC -32603 with that sentence;
 * - a request or notification -> undefined (the sender is told by a rejected `send`).
 *
 * @param method - the method of the request `message` answers, when known.
 */
export function oversizeReplacement(
  message: JSONRPCMessage,
  method: string | undefined,
  bytes: number,
  limit: number,
): JSONRPCMessage | undefined {
  if (!('id' in message) || 'method' in message) return undefined;
  const what = method ? `${method} result` : 'response';
  const text = oversizeMessage(what, bytes, limit);
  if ('result' in message && method === 'tools/call') {
    const { content: _content, structuredContent: _structured, ...rest } = message.result;
    return { ...message, result: { ...rest, content: [{ type: 'text', text }], isError: true } };
  }
  return { jsonrpc: '2.0', id: message.id, error: { code: ProtocolErrorCode.InternalError, message: text } };
}
