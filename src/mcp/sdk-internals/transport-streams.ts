import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/** The part of the SDK transport's private stream table (2.4) used here. */
type StreamTable = Map<string, { cleanup?: () => void }>;

/**
 * Ends the legacy transport's open SSE stream `streamId` (a POST's response stream), so
 * that a client resuming it (`GET` with `Last-Event-ID`) after it died behind a proxy is
 * served instead of refused with 409 while the dead stream still looks open here.
 *
 * The SDK (2.4) keeps its streams in the private `_streamMapping`; its public
 * `closeSSEStream` takes a request id, which a resuming client does not send. When an SDK
 * version has no such table this does nothing and returns false: the SDK then answers the
 * resume as it always did (409 while the old stream is open).
 */
export function closeTransportStream(transport: WebStandardStreamableHTTPServerTransport, streamId: string): boolean {
  const table = (transport as unknown as { _streamMapping?: unknown })._streamMapping;
  if (!(table instanceof Map)) return false;
  const entry = (table as StreamTable).get(streamId);
  if (typeof entry?.cleanup === 'function') entry.cleanup();
  return true;
}

/** The SDK transport's private request tables (2.4): request id -> its stream, and answers held for a batch. */
interface RequestTables {
  _streamMapping?: unknown;
  _requestToStreamMapping?: unknown;
  _requestResponseMap?: unknown;
}

/**
 * Forgets request `requestId` once its stream was closed without an answer (a cancelled request:
 * MCP cancellation sends none). The SDK (2.4) forgets a request when it sends its answer; a
 * cancelled one stayed in `_requestToStreamMapping` until the session ended, one entry per
 * cancellation. A request whose stream is still open is left alone (its answer may still come).
 * Does nothing when this SDK version has no such tables.
 */
export function forgetClosedRequest(transport: WebStandardStreamableHTTPServerTransport, requestId: unknown): void {
  const {
    _streamMapping: streams,
    _requestToStreamMapping: requests,
    _requestResponseMap: answers,
  } = transport as unknown as RequestTables;
  if (!(streams instanceof Map) || !(requests instanceof Map)) return;
  const streamId: unknown = requests.get(requestId);
  if (streamId === undefined || streams.has(streamId)) return;
  requests.delete(requestId);
  if (answers instanceof Map) answers.delete(requestId);
}

/** A stream entry of the SDK transport's table (2.4) as far as writing to it goes. */
interface WritableStreamEntry {
  controller?: ReadableStreamDefaultController<Uint8Array>;
  encoder?: unknown;
}

/** The SDK transport's private parts (2.4) the standalone write below uses. */
interface StandaloneParts {
  _streamMapping?: unknown;
  _standaloneSseStreamId?: unknown;
  writeSSEEvent?: (controller: unknown, encoder: unknown, message: unknown, eventId?: string) => boolean;
}

/**
 * Writes `message`, a request or notification tied to no client request (a `list_changed`, a
 * ping), on the session's standalone GET stream, exactly as the SDK transport's `send` does for
 * it without an event store: through the transport's own `writeSSEEvent` when the stream is
 * open, dropped when it is not. It skips what `send` does first to find out the message is no
 * response: four zod parses (`isJSONRPCResultResponse` / `isJSONRPCErrorResponse`, twice each),
 * which fail for a notification and cost most of a toggle's fan-out per session
 * (docs/performance.md, W5).
 *
 * Only for a transport without an event store (the caller knows; with one the SDK must store
 * the event first) and for a message the caller checked is a plain request or notification.
 *
 * @returns true when handled (written or dropped as the SDK would), false when this SDK version
 *   lacks the table, the stream id or the writer: the caller then uses the SDK's `send`.
 */
export function writeOnStandaloneStream(
  transport: WebStandardStreamableHTTPServerTransport,
  message: unknown,
): boolean {
  const parts = transport as unknown as StandaloneParts;
  const table = parts._streamMapping;
  const write = parts.writeSSEEvent;
  if (!(table instanceof Map) || typeof parts._standaloneSseStreamId !== 'string' || typeof write !== 'function') {
    return false;
  }
  const stream = (table as Map<string, WritableStreamEntry>).get(parts._standaloneSseStreamId);
  if (stream?.controller && stream.encoder)
    write.call(transport, stream.controller, stream.encoder, message, undefined);
  return true;
}
