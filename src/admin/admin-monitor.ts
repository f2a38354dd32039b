import { DocumentReadError, ToolCallAbortedError } from '../errors.js';
import type { ServerEventMap } from '../mcp/server/server-events.js';
import type { AdminServer } from './admin-options.js';
import { AdminFeed } from './admin-feed.js';
import { ToolCallStats } from './tool-call-stats.js';
import { upstreamJson } from './upstream-json.js';

/** Converter errors kept for the documents view (most recent). */
const MAX_CONVERTER_ERRORS = 50;

/** A `resources/read` that a converter (or a size limit) refused. */
export interface ConverterErrorRecord {
  readonly uri: string;
  readonly code: string;
  readonly message: string;
  readonly at: number;
}

/**
 * What the admin router observes on the server through its public events: call statistics,
 * document activity and converter errors; every event is also forwarded to the SSE feed.
 * Listeners are removed (and streams ended) when the server stops or on {@link close}.
 */
export class AdminMonitor {
  readonly feed: AdminFeed;
  readonly stats?: ToolCallStats;
  /** Last change per document URI (epoch ms); `*` is the list itself. */
  readonly documentChanges = new Map<string, number>();
  readonly converterErrors: ConverterErrorRecord[] = [];
  converterErrorCount = 0;
  readonly #off: Array<() => void> = [];

  constructor(server: AdminServer, options: { statistics: boolean; keepAliveMs: number }) {
    this.feed = new AdminFeed(options.keepAliveMs);
    const events = server.events;
    const on = <K extends keyof ServerEventMap>(name: K, listener: (...args: ServerEventMap[K]) => void) => {
      events.on(name, listener as never);
      this.#off.push(() => events.off(name, listener as never));
    };
    if (options.statistics) {
      const stats = new ToolCallStats();
      this.stats = stats;
      on('toolCallFinished', (call) => {
        // A 2026-07-28 round that ended asking for input is not a call: the client's retry continues it,
        // and the round that answers counts it once (as the observer does).
        if (call.inputRequired) return;
        // A call that was cancelled, timed out, lost its connection or was stopped is no tool failure.
        const aborted = call.error instanceof ToolCallAbortedError;
        const failed = !aborted && (call.isError || call.error !== undefined);
        const at = Date.now();
        stats.record(call.name, call.durationMs, aborted ? 'aborted' : failed ? 'error' : 'ok', at);
        if (this.feed.listening) {
          this.feed.callFinished({
            name: call.name,
            durationMs: call.durationMs,
            isError: failed,
            ...(aborted && { aborted: true }),
            at,
            ...(call.sessionId !== undefined && { sessionId: call.sessionId }),
          });
        }
      });
    }
    on('toolToggled', ({ name, enabled }) => this.feed.send('toolToggled', { name, enabled }));
    on('toolOverridden', ({ name, exposedName, override }) =>
      this.feed.send('toolOverridden', { name, exposedName, override: override ?? null }),
    );
    on('toolRemoved', ({ tool }) => this.feed.send('toolRemoved', { name: tool.name }));
    on('upstreamStatusChanged', (status) => this.feed.send('upstreamStatus', upstreamJson(status)));
    on('toolRegistered', ({ tool, enabled }) => this.feed.send('toolRegistered', { name: tool.name, enabled }));
    on('sessionCreated', (info) => this.feed.send('sessionCreated', info));
    on('sessionClosed', (info) => this.feed.send('sessionClosed', info));
    on('toolStateSaveFailed', ({ error }) => this.feed.send('toolStateSaveFailed', { message: error.message }));
    on('resourceRead', ({ uri, ok, error }) => {
      if (ok || !(error instanceof DocumentReadError)) return;
      const record = { uri, code: error.code, message: error.message, at: Date.now() };
      this.converterErrors.push(record);
      if (this.converterErrors.length > MAX_CONVERTER_ERRORS) this.converterErrors.shift();
      this.converterErrorCount += 1;
      this.feed.send('documentReadFailed', record);
    });
    const offDocuments = server.documents.onChange((event) => {
      const at = Date.now();
      this.documentChanges.set(event.type === 'updated' ? event.uri : '*', at);
      this.feed.send('documentChanged', { ...event, at });
    });
    this.#off.push(offDocuments);
    const offStatus = server.cluster?.onStatus?.((status) => this.feed.send('clusterStatus', status));
    if (offStatus) this.#off.push(offStatus);
    on('stopped', () => this.close());
  }

  /** Removes every listener and ends the SSE streams. Idempotent. */
  close(): void {
    for (const off of this.#off.splice(0)) off();
    this.feed.close();
  }
}
