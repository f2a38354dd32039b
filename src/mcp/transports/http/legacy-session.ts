import type { ServerResponse } from 'node:http';
import {
  isJSONRPCNotification,
  type AuthInfo,
  WebStandardStreamableHTTPServerTransport,
  type EventStore,
  type JSONRPCMessage,
  type Server,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import { useCachedSseWriter } from '../../sdk-internals/cached-sse-writer.js';
import { serveNativeSessionPost } from '../../sdk-internals/native-session-post.js';
import { closeTransportStream, writeOnStandaloneStream } from '../../sdk-internals/transport-streams.js';
import { plainMessageKind } from '../../wire/json-rpc-shape.js';
import { ToolCallAbortedError } from '../../../errors.js';
import { ABORT_SETTLE_MS, settleWithin, type InFlightCalls } from '../../server/in-flight-calls.js';
import { startPinging, type PingSettings } from '../ping.js';
import { NodeSseAnswer } from './node-sse-answer.js';
import { SessionEventStore } from './session-event-store.js';
import type { Closable, SessionMap } from './session-map.js';
import { nodeCrypto } from '../../../lazy-module.js';

/** Transport settings shared by every legacy session. */
export interface LegacyTransportSettings {
  /** SSE keepalive interval (ms), 0 off. */
  keepAliveMs: number;
  eventStore?: EventStore;
  maxRequestBodyBytes: number;
  /** The server's running tool calls: a closing session or a dead connection aborts its own. */
  calls: InFlightCalls;
  /** Told (once per process) when the SDK's SSE writer changed and the cached writer is off. */
  onSdkMismatch?: (reason: string) => void;
  /** Liveness pings over the GET stream; a session whose client stops answering is closed (`unresponsive`). */
  ping?: PingSettings;
}

/** Change notifications worth holding for a client whose GET stream is not open yet. */
const HELD_METHODS = new Set([
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/updated',
]);
/** At most this many distinct held notifications per session (resource URIs are the only variable part). */
const MAX_HELD = 64;
/** The SDK transport's name for a session's standalone GET stream (in every session). */
const STANDALONE_STREAM_ID = '_GET_stream';
const SENT: Promise<void> = Promise.resolve();

/**
 * One legacy HTTP session: its own long-lived view connected to its own SDK transport.
 * The transport's callbacks close over this object only (never over the `initialize`
 * request or response), so an idle session holds no request-time memory.
 *
 * Change notifications (`list_changed`, `resources/updated`) sent while the client has
 * no GET stream open are held, one per kind (and URI), and sent when its stream opens,
 * so a change made between `initialize` and the client's GET is not lost. Without an
 * event store only; with one, the SDK's replay (`Last-Event-ID`) covers it. The app's
 * event store is seen through a {@link SessionEventStore}, so replays never cross sessions.
 */
export class LegacySession implements Closable {
  readonly transport: WebStandardStreamableHTTPServerTransport;
  #onInitialized?: (id: string) => void;
  #openStreams = 0;
  #held?: Map<string, JSONRPCMessage>;
  readonly #eventStore?: SessionEventStore;
  readonly #calls: InFlightCalls;
  readonly #sending = new Set<Promise<void>>();
  #stopPing?: () => void;

  /** @param onInitialized - called once, when `initialize` assigned the session id. */
  constructor(
    readonly view: Server,
    sessions: SessionMap<LegacySession>,
    settings: LegacyTransportSettings,
    onInitialized: (id: string) => void,
  ) {
    this.#onInitialized = onInitialized;
    this.#calls = settings.calls;
    // The id is chosen now so that the event store view can scope its streams to it.
    const sessionId = nodeCrypto().randomUUID();
    this.#eventStore = settings.eventStore && new SessionEventStore(settings.eventStore, sessionId);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      onsessioninitialized: (id) => {
        const callback = this.#onInitialized;
        this.#onInitialized = undefined;
        callback?.(id);
        if (settings.ping) {
          const ping = settings.ping;
          this.#stopPing = startPinging(
            view,
            ping,
            () => this.#openStreams > 0,
            () => sessions.remove(id, 'unresponsive'),
          );
        }
      },
      onsessionclosed: (id) => void sessions.remove(id, 'deleted'),
      keepAliveMs: settings.keepAliveMs,
      eventStore: this.#eventStore,
      maxRequestBodySize: settings.maxRequestBodyBytes,
    });
    useCachedSseWriter(transport, settings.onSdkMismatch);
    const send = transport.send.bind(transport);
    const resumable = this.#eventStore !== undefined;
    transport.send = (message, options) => {
      if (!resumable) {
        if (this.#hold(message, options)) return SENT;
        // A toggle's list_changed goes to every session: written straight to the GET stream (same bytes, no parses).
        if (
          options?.relatedRequestId === undefined &&
          plainMessageKind(message) !== undefined &&
          writeOnStandaloneStream(transport, message)
        ) {
          return SENT;
        }
      }
      // Tracked so that closing the session waits for answers still being stored and written.
      const sending = send(message, options);
      this.#sending.add(sending);
      void sending.catch(() => {}).finally(() => this.#sending.delete(sending));
      return sending;
    };
    this.transport = transport;
  }

  /** Connects the view; when the transport closes (for any reason) the session leaves the map (`closed`). */
  async connect(sessions: SessionMap<LegacySession>): Promise<void> {
    await this.view.connect(this.transport);
    const transport = this.transport;
    const onViewClose = transport.onclose;
    transport.onclose = () => {
      onViewClose?.();
      if (transport.sessionId) sessions.remove(transport.sessionId, 'closed');
    };
  }

  /**
   * A new GET arrived: the client has given up the stream it replaces, even if that stream
   * still looks open here (a proxy that never closed our side). A plain GET replaces the
   * standalone stream (a client holds one); a GET with `Last-Event-ID` replaces the stream
   * it resumes (the standalone one or a POST's). The old stream is closed, so the new GET is
   * served instead of refused with 409 and messages stop going into the dead stream.
   */
  async replaceStream(lastEventId: string | undefined): Promise<void> {
    const store = this.#eventStore;
    if (lastEventId && store) {
      // Without a lookup the SDK's replay itself replaces the stream it resumes.
      if (!store.getStreamIdForEventId) return;
      const streamId = await store.getStreamIdForEventId(lastEventId).catch(() => undefined);
      if (streamId === undefined) return; // not this session's event: the SDK refuses it
      if (streamId !== STANDALONE_STREAM_ID) {
        closeTransportStream(this.transport, streamId);
        return;
      }
    }
    this.transport.closeStandaloneSSEStream();
  }

  /**
   * Serves a plain POST (one JSON-RPC request) of this session with its answer written straight
   * on the Node response (`serveNativeSessionPost`, the SDK transport's behaviour without its web
   * objects). Returns `answering` or the SDK's error answer; undefined when the SDK transport
   * must serve the request (anything else, and every session with an event store).
   */
  servePlainPost(
    request: Request,
    res: ServerResponse,
    body: unknown,
    authInfo: AuthInfo | undefined,
    answering: Response,
  ): Response | undefined {
    if (this.#eventStore) return undefined;
    const open = (headers: Record<string, string>, onCancel: () => void) => new NodeSseAnswer(res, headers, onCancel);
    return serveNativeSessionPost(this.transport, request, body, authInfo, open, answering);
  }

  /** True with an event store: a client can resume a dropped stream (`Last-Event-ID`) and still get its answers. */
  get resumable(): boolean {
    return this.#eventStore !== undefined;
  }

  /** The client's GET stream opened: held notifications go out on it now. */
  streamOpened(): void {
    this.#openStreams += 1;
    const held = this.#held;
    this.#held = undefined;
    for (const message of held?.values() ?? []) this.transport.send(message).catch(() => {});
  }

  /** The client's GET stream closed. */
  streamClosed(): void {
    this.#openStreams = Math.max(0, this.#openStreams - 1);
  }

  /**
   * Ends the session's running calls (reason `disconnected`), each answered with a JSON-RPC
   * error on its own POST stream, then closes the view, which closes the transport and its
   * open SSE streams. Run for every way a session ends (DELETE, `closeSession()`, eviction,
   * idle, `stop()`), so no call's POST is ended with an empty 200.
   */
  async close(): Promise<void> {
    this.#stopPing?.();
    await this.abortCalls('The session was closed during the call.');
    await this.view.close();
  }

  /**
   * Aborts this session's running calls (those with an id in `ids`, when given) with reason
   * `disconnected` and `message`; resolves once they were answered (bounded).
   */
  async abortCalls(message: string, ids?: ReadonlyArray<string | number>): Promise<void> {
    await this.#calls.abort(this.view, () => new ToolCallAbortedError('disconnected', message), ids);
    if (this.#sending.size === 0) return;
    // Answers still being stored (event store) and written, at most ABORT_SETTLE_MS more.
    await settleWithin(Promise.allSettled([...this.#sending]), ABORT_SETTLE_MS);
  }

  #hold(message: JSONRPCMessage, options: TransportSendOptions | undefined): boolean {
    if (this.#openStreams > 0 || options?.relatedRequestId !== undefined) return false;
    // The method first: the schema check (a zod parse) is then paid only by the rare held notification.
    const { method } = message as { method?: unknown };
    if (typeof method !== 'string' || !HELD_METHODS.has(method) || !isJSONRPCNotification(message)) return false;
    const held = (this.#held ??= new Map());
    const key = `${message.method} ${String(message.params?.uri ?? '')}`;
    if (held.size < MAX_HELD || held.has(key)) held.set(key, message);
    return true;
  }
}
