import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { markSerializedOnce, serializedAroundTools } from '../wire/serialized-once.js';

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

/**
 * The SSE frame the SDK would write for `message` (`event: message`, optional `id:`,
 * `data: <JSON>`), built around the cached JSON of a `result.tools` marked with
 * `markSerializedOnce`; undefined when the message carries no such value. The frame comes in
 * three parts (head, the cached bytes themselves, tail), enqueued one after the other: copying
 * the cached bytes into one buffer per `tools/list` costs CPU in proportion to the list (docs/performance.md, W4).
 * Nothing downstream detaches an enqueued chunk (a default `ReadableStream`, written to the
 * socket as it is), so the cached bytes are shared safely.
 */
function cachedFrame(
  encoder: Encoder,
  message: unknown,
  eventId: string | undefined,
): [Uint8Array, Uint8Array, Uint8Array] | undefined {
  const parts = serializedAroundTools(message);
  if (!parts) return undefined;
  const head = encoder.encode(`event: message\n${eventId ? `id: ${eventId}\n` : ''}data: ${parts.before}`);
  const tail = encoder.encode(`${parts.after}\n\n`);
  return [head, parts.tools, tail];
}

/** Probe messages the self-check writes with the SDK's writer and with ours: one marked list, one plain message. */
const PROBE_TOOLS: readonly unknown[] = Object.freeze([
  Object.freeze({ name: 'probe "ü" \\ \n', inputSchema: Object.freeze({ type: 'object' }) }),
]);
markSerializedOnce(PROBE_TOOLS);
const PROBES: ReadonlyArray<[unknown, string | undefined]> = [
  [{ jsonrpc: '2.0', id: 'probe', result: { tools: PROBE_TOOLS, nextCursor: 'c' } }, 'stream_probe_1'],
  [{ jsonrpc: '2.0', id: 1, result: { tools: PROBE_TOOLS } }, undefined],
  [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, 'e'],
];

/** The bytes `write` produces for `message`, or undefined when it throws or reports failure. */
function written(write: SseWriter, message: unknown, eventId: string | undefined): string | undefined {
  const chunks: Uint8Array[] = [];
  const controller = { enqueue: (chunk: Uint8Array) => void chunks.push(chunk) };
  try {
    const ok = write.call(
      { onerror: () => {} },
      controller as unknown as ReadableStreamDefaultController<Uint8Array>,
      new TextEncoder(),
      message,
      eventId,
    );
    return ok ? Buffer.concat(chunks).toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** Verdicts of the self-check, per SDK writer function (one per SDK copy loaded). */
const verdicts = new WeakMap<SseWriter, boolean>();
let missingReported = false;

/**
 * Runs the self-check on the SDK's `WebStandardStreamableHTTPServerTransport` at start-up
 * (`HttpMcpServer.start()`), so a changed SDK is reported once, before the first session.
 */
export function checkSdkSseWriter(onMismatch: (reason: string) => void): boolean {
  const proto = WebStandardStreamableHTTPServerTransport.prototype as unknown as { writeSSEEvent?: unknown };
  return sdkSseWriterMatches(proto.writeSSEEvent, onMismatch);
}

/**
 * The start-up self-check: whether `writer` (the SDK transport's `writeSSEEvent`) still has
 * the shape and framing the cached writer reproduces. It writes probe messages with the SDK
 * writer and compares them, byte for byte, with the framing this module assumes
 * (`event: message`, optional `id:`, `data: <JSON>`, blank line) and with the cached frames.
 * Computed once per writer; the first `false` is reported through `onMismatch` (so a changed
 * SDK logs once, not once per session).
 */
export function sdkSseWriterMatches(writer: unknown, onMismatch?: (reason: string) => void): boolean {
  if (typeof writer !== 'function') {
    if (!missingReported) onMismatch?.('the SDK transport has no writeSSEEvent method');
    missingReported = true;
    return false;
  }
  const sdk = writer as SseWriter;
  const known = verdicts.get(sdk);
  if (known !== undefined) return known;
  let reason: string | undefined = sdk.length === 4 ? undefined : `writeSSEEvent takes ${sdk.length} arguments, not 4`;
  for (const [message, eventId] of reason ? [] : PROBES) {
    const expected = `event: message\n${eventId ? `id: ${eventId}\n` : ''}data: ${JSON.stringify(message)}\n\n`;
    const actual = written(sdk, message, eventId);
    const cached = cachedFrame(new TextEncoder(), message, eventId);
    if (actual !== expected) reason = 'the SDK writer frames SSE events differently';
    else if (cached && Buffer.concat(cached).toString('utf8') !== expected) reason = 'the cached frame differs';
    if (reason) break;
  }
  verdicts.set(sdk, reason === undefined);
  if (reason) onMismatch?.(reason);
  return reason === undefined;
}

/**
 * Lets a legacy session's transport write responses that carry a serialized-once value
 * (the shared `tools/list` array) from its cached JSON: the same bytes as the SDK's own
 * writer, without re-serializing ~200 KB per `tools/list` at 1,000 tools.
 *
 * This wraps the transport's SSE event writer (`writeSSEEvent`, not public in SDK 2.4).
 * Every other message goes to the SDK's writer unchanged. When the start-up self-check
 * ({@link sdkSseWriterMatches}) finds the SDK's writer missing or changed, the transport
 * keeps its own writer (same bytes, without the shortcut) and `onMismatch` hears why, once
 * per process. `test/mcp/cached-sse-writer.test.ts` checks the bytes and the fallback.
 *
 * @returns true when the cached writer is in place, false when the SDK path is kept.
 */
export function useCachedSseWriter(
  transport: WebStandardStreamableHTTPServerTransport,
  onMismatch?: (reason: string) => void,
): boolean {
  const target = transport as unknown as { writeSSEEvent?: SseWriter; onerror?: (error: Error) => void };
  const original = target.writeSSEEvent;
  if (!sdkSseWriterMatches(original, onMismatch) || !original) return false;
  target.writeSSEEvent = function (controller, encoder, message, eventId) {
    const frame = cachedFrame(encoder, message, eventId);
    if (!frame) return original.call(this, controller, encoder, message, eventId);
    try {
      for (const part of frame) controller.enqueue(part);
      return true;
    } catch (error) {
      target.onerror?.(error as Error);
      return false;
    }
  };
  return true;
}
