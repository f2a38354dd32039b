import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { serializedOnce } from '../view/serialized-once.js';

/** What the SDK's writer is given to encode with (a `TextEncoder`). */
interface Encoder {
  encode(input: string): Uint8Array;
}

type SseWriter = (
  controller: ReadableStreamDefaultController<Uint8Array>,
  encoder: Encoder,
  message: unknown,
  eventId?: string,
) => boolean;

/** Stands for the cached value in the message's JSON; cannot come out of JSON.stringify of anything else. */
const PLACEHOLDER = '\u0000mcp-toolkit:serialized-once\u0000';
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The SSE frame the SDK would write for `message` (`event: message`, optional `id:`,
 * `data: <JSON>`), built around the cached JSON of a `result.tools` marked with
 * `markSerializedOnce`; undefined when the message carries no such value.
 */
function cachedFrame(encoder: Encoder, message: unknown, eventId: string | undefined): Uint8Array | undefined {
  if (!isPlainObject(message) || !isPlainObject(message.result)) return undefined;
  const cached = serializedOnce(message.result.tools);
  if (!cached) return undefined;
  const shell = JSON.stringify({ ...message, result: { ...message.result, tools: PLACEHOLDER } });
  const at = shell.indexOf(PLACEHOLDER_JSON);
  if (at < 0 || at !== shell.lastIndexOf(PLACEHOLDER_JSON)) return undefined;
  const head = encoder.encode(`event: message\n${eventId ? `id: ${eventId}\n` : ''}data: ${shell.slice(0, at)}`);
  const tail = encoder.encode(`${shell.slice(at + PLACEHOLDER_JSON.length)}\n\n`);
  const frame = new Uint8Array(head.length + cached.length + tail.length);
  frame.set(head, 0);
  frame.set(cached, head.length);
  frame.set(tail, head.length + cached.length);
  return frame;
}

/**
 * Lets a legacy session's transport write responses that carry a serialized-once value
 * (the shared `tools/list` array) from its cached JSON: the same bytes as the SDK's own
 * writer, without re-serializing ~200 KB per `tools/list` at 1,000 tools.
 *
 * This wraps the transport's SSE event writer (`writeSSEEvent`, not public in SDK 2.4).
 * Every other message goes to the SDK's writer unchanged, and when an SDK version has no
 * such method the transport keeps its own writer (same bytes, without the shortcut).
 * `test/mcp/cached-sse-writer.test.ts` checks the bytes against the SDK's framing.
 */
export function useCachedSseWriter(transport: WebStandardStreamableHTTPServerTransport): void {
  const target = transport as unknown as { writeSSEEvent?: SseWriter; onerror?: (error: Error) => void };
  const original = target.writeSSEEvent;
  if (typeof original !== 'function' || original.length !== 4) return;
  target.writeSSEEvent = function (controller, encoder, message, eventId) {
    const frame = cachedFrame(encoder, message, eventId);
    if (!frame) return original.call(this, controller, encoder, message, eventId);
    try {
      controller.enqueue(frame);
      return true;
    } catch (error) {
      target.onerror?.(error as Error);
      return false;
    }
  };
}
