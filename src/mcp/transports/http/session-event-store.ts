import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

type EventId = string;
type StreamId = string;

/** Separates the session id from the SDK's stream id in the stream ids the app's store sees. */
const SEPARATOR = '\u001f';

/** The replayed stream of an event from another session (or unknown): the SDK opens and at once closes it. */
const FOREIGN_STREAM = `${SEPARATOR}foreign`;

/**
 * One legacy session's view of the app's `eventStore` (MCP 2025-11-25, Streamable HTTP,
 * "Resumability and Redelivery": event IDs are per stream, and a stream belongs to one
 * session). The SDK transport names every session's standalone GET stream `_GET_stream`
 * and never tells the store the session, so a store shared by all sessions would replay
 * one session's notifications to another. This wrapper stores every event under
 * `<sessionId>\u001f<streamId>` and replays only events of this session's streams:
 *
 * - `storeEvent` prefixes the stream id with the session id.
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
    if (lookup) this.getStreamIdForEventId = async (eventId) => this.#own(await lookup(eventId));
  }

  storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    return this.#store.storeEvent(this.#prefix + streamId, message);
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const events: Array<[EventId, JSONRPCMessage]> = [];
    const streamId = this.#own(
      await this.#store.replayEventsAfter(lastEventId, {
        send: async (eventId, message) => void events.push([eventId, message]),
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
