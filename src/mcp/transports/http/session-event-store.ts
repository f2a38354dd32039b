import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

type EventId = string;
type StreamId = string;

/**
 * Separates the session id (a UUID) from the SDK's stream id in the stream ids the app's store
 * sees. Visible ASCII on purpose: stores commonly build event ids from stream ids, and an event
 * id travels back as a `Last-Event-ID` header, where fetch refuses control characters.
 */
const SEPARATOR = '.';

/** The replayed stream of an event from another session (or unknown): the SDK opens and at once closes it. */
const FOREIGN_STREAM = `${SEPARATOR}foreign`;

/** What may travel in an event id as it is: visible ASCII (RFC 9110 field value without whitespace) but `%`. */
const UNSAFE_ID_CHAR = /[^\x21-\x24\x26-\x7e]/gu;

/**
 * The form of a store's event id the client is given: every character outside visible ASCII, and
 * `%` itself, percent-encoded as UTF-8. So the id is a valid `Last-Event-ID` header value (no
 * control characters, no CR/LF to break the SSE `id:` line, no edge whitespace a client trims),
 * and {@link storedEventId} gives the store back exactly what it returned. Ids of visible ASCII
 * without `%` (UUIDs, counters, `<stream>_<n>`) are sent unchanged.
 */
export function clientEventId(stored: EventId): EventId {
  return stored.replace(UNSAFE_ID_CHAR, (char) => {
    try {
      return encodeURIComponent(char);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate has no UTF-8 form
    }
  });
}

/** The store's event id behind an id from {@link clientEventId} (as a client sends it back). */
export function storedEventId(sent: EventId): EventId {
  if (!sent.includes('%')) return sent;
  try {
    return decodeURIComponent(sent);
  } catch {
    return sent; // not one of ours: the store answers "unknown event"
  }
}

/**
 * One legacy session's view of the app's `eventStore` (MCP 2025-11-25, Streamable HTTP,
 * "Resumability and Redelivery": event IDs are per stream, and a stream belongs to one
 * session). The SDK transport names every session's standalone GET stream `_GET_stream`
 * and never tells the store the session, so a store shared by all sessions would replay
 * one session's notifications to another. This wrapper stores every event under
 * `<sessionId>.<streamId>` and replays only events of this session's streams:
 *
 * - `storeEvent` prefixes the stream id with the session id, and hands the SDK the event id in
 *   its header-safe form ({@link clientEventId}): the client sends it back as `Last-Event-ID`.
 * - `getStreamIdForEventId` (offered when the store has it) answers undefined for an event of
 *   another session, so the SDK refuses the resume with 400 before anything is replayed.
 * - `replayEventsAfter` buffers what the store replays and forwards it only when the
 *   returned stream is this session's; otherwise nothing is sent and the resumed stream
 *   is closed at once (the client sees an empty stream).
 */
export class SessionEventStore implements EventStore {
  readonly #store: EventStore;
  readonly #prefix: string;
  getStreamIdForEventId?: (eventId: EventId) => Promise<StreamId | undefined>;

  /**
   * @param store - the app's `eventStore`, shared by every session.
   * @param sessionId - the id of the session this view serves (known before its first event).
   */
  constructor(store: EventStore, sessionId: string) {
    this.#store = store;
    this.#prefix = `${sessionId}${SEPARATOR}`;
    const lookup = store.getStreamIdForEventId?.bind(store);
    if (lookup) this.getStreamIdForEventId = async (eventId) => this.#own(await lookup(storedEventId(eventId)));
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return clientEventId(await this.#store.storeEvent(this.#prefix + streamId, message));
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const events: Array<[EventId, JSONRPCMessage]> = [];
    const streamId = this.#own(
      await this.#store.replayEventsAfter(storedEventId(lastEventId), {
        send: async (eventId, message) => void events.push([clientEventId(eventId), message]),
      }),
    );
    if (streamId === undefined) return FOREIGN_STREAM;
    for (const [eventId, message] of events) await send(eventId, message);
    return streamId;
  }

  /** The SDK's stream id of a stored stream id of this session, else undefined. */
  #own(stored: StreamId | undefined): StreamId | undefined {
    return stored?.startsWith(this.#prefix) ? stored.slice(this.#prefix.length) : undefined;
  }
}
