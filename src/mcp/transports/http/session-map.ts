import type { SessionCloseReason } from '../../server/server-events.js';

export type { SessionCloseReason };

/** What `initialize` does when the session cap is reached: answer 503, or close the least recently used idle session. */
export type SessionLimitPolicy = 'reject' | 'evict-lru';

/**
 * A legacy session was created or closed; `lifetimeMs` in ms. Close reasons:
 * `deleted` (client DELETE), `idle` (idle timeout), `closed` (transport/view closed or
 * `closeSession()`), `evicted` (LRU eviction at the cap), `shutdown` (`stop()`), `unresponsive`
 * (no answer to a liveness ping, `pingIntervalMs`).
 */
export type HttpSessionEvent =
  | { type: 'created'; sessionId: string; clientId?: string }
  | { type: 'closed'; sessionId: string; reason: SessionCloseReason; lifetimeMs: number };

/** A live legacy session as the app sees it (`HttpMcpServer.listSessions()`); times are epoch ms. */
export interface HttpSessionInfo {
  readonly id: string;
  readonly createdAt: number;
  /** When its last request or stream ended (or the session was created). */
  readonly lastActivityAt: number;
  /** Requests and streams (GET SSE) open right now; a busy session is never idle-reaped or evicted. */
  readonly openRequests: number;
  /** `clientId` of the auth info that created it, when `authenticate` is configured. */
  readonly clientId?: string;
  /** Protocol era: HTTP sessions exist on the handshake (legacy) era only. Set by `HttpMcpServer.listSessions()`. */
  readonly era?: 'legacy';
  /** The client's `clientInfo` from `initialize` (name, version, ...). Set by `HttpMcpServer.listSessions()`. */
  readonly clientInfo?: { readonly name: string; readonly version: string; readonly title?: string };
}

/** Something a session map can close. */
export interface Closable {
  close(): Promise<void>;
}

/** Limits and callbacks of a {@link SessionMap}. */
export interface SessionMapOptions {
  /** Idle time (ms) after which a session with nothing open is closed; 0 never. */
  idleTimeoutMs: number;
  maxSessions: number;
  policy: SessionLimitPolicy;
  onEvent?: (event: HttpSessionEvent) => void;
  /** Receives errors from `onEvent` and from closing sessions. */
  onError(error: unknown): void;
}

interface Entry<S> {
  readonly session: S;
  readonly id: string;
  readonly createdAt: number;
  lastActivityAt: number;
  openRequests: number;
  readonly clientId?: string;
  /** Who may use the session: `clientId` plus, for OAuth tokens, the subject (see `legacy-leg.ts`). */
  readonly owner?: string;
}

/**
 * The live legacy sessions, kept in least-recently-active order so that the idle
 * sweep and LRU eviction stop at the first recent entry instead of scanning all.
 * One `unref()`'d sweep timer serves every session (interval: half the idle timeout,
 * between 10 ms and 30 s), so a session costs no timer of its own and an abandoned
 * session is closed between `idleTimeoutMs` and `idleTimeoutMs` + interval after its
 * last activity.
 */
export class SessionMap<S extends Closable> {
  readonly #entries = new Map<string, Entry<S>>();
  readonly #options: SessionMapOptions;
  #reserved = 0;
  #timer?: NodeJS.Timeout;
  #closed = false;

  constructor(options: SessionMapOptions) {
    this.#options = options;
  }

  /** Live sessions (not counting reservations). */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Claims room for one new session, evicting the least recently used idle one under
   * `'evict-lru'`. Returns false when the cap is reached; call {@link add} or
   * {@link release} after a true.
   */
  reserve(): boolean {
    if (this.#entries.size + this.#reserved >= this.#options.maxSessions) {
      if (this.#options.policy !== 'evict-lru') return false;
      const victim = this.#leastRecentlyUsedIdle();
      if (!victim) return false;
      this.remove(victim, 'evicted');
    }
    this.#reserved += 1;
    return true;
  }

  /** Gives back a reservation whose session never came to be. */
  release(): void {
    this.#reserved = Math.max(0, this.#reserved - 1);
  }

  /** Turns a reservation into a live session and emits `created` (after {@link closeAll}: closes it at once). */
  add(id: string, session: S, clientId?: string, owner: string | undefined = clientId): void {
    this.release();
    if (this.#closed) {
      session.close().catch(this.#options.onError);
      return;
    }
    const now = Date.now();
    this.#entries.set(id, { session, id, createdAt: now, lastActivityAt: now, openRequests: 0, clientId, owner });
    this.#emit({ type: 'created', sessionId: id, clientId });
  }

  /** The session with this id, or undefined. */
  get(id: string): { session: S; clientId?: string; owner?: string } | undefined {
    return this.#entries.get(id);
  }

  /** Marks a request or stream of the session as open (it cannot be reaped meanwhile). */
  begin(id: string): void {
    const entry = this.#entries.get(id);
    if (entry) entry.openRequests += 1; // a busy entry is skipped by the sweep; `end` moves it
  }

  /** Marks a request or stream of the session as finished; the idle clock restarts now. */
  end(id: string): void {
    const entry = this.#entries.get(id);
    if (entry) {
      entry.openRequests = Math.max(0, entry.openRequests - 1);
      this.#touch(entry);
    }
  }

  /**
   * Forgets the session, emits `closed` with `reason` and closes it (errors go to
   * `onError`). Returns false when the id is unknown (already removed).
   */
  remove(id: string, reason: SessionCloseReason): boolean {
    const entry = this.#entries.get(id);
    if (!entry) return false;
    this.#entries.delete(id);
    this.#emit({ type: 'closed', sessionId: id, reason, lifetimeMs: Date.now() - entry.createdAt });
    entry.session.close().catch(this.#options.onError);
    return true;
  }

  /** Closes every session with `reason` and waits for them to close; sessions added later are closed at once. */
  async closeAll(reason: SessionCloseReason): Promise<void> {
    this.#closed = true;
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of entries) {
      this.#emit({ type: 'closed', sessionId: entry.id, reason, lifetimeMs: Date.now() - entry.createdAt });
    }
    await Promise.allSettled(entries.map((entry) => entry.session.close()));
  }

  /** Snapshot of the live sessions, least recently active first. */
  list(): HttpSessionInfo[] {
    return [...this.#entries.values()].map(({ session: _session, ...info }) => ({ ...info }));
  }

  /** Closes every session idle for longer than the timeout; returns how many. Called by the sweep timer. */
  sweep(now = Date.now()): number {
    const { idleTimeoutMs } = this.#options;
    if (idleTimeoutMs === 0) return 0;
    const expired: string[] = [];
    for (const entry of this.#entries.values()) {
      if (entry.lastActivityAt + idleTimeoutMs > now) break; // the rest are more recent
      if (entry.openRequests === 0) expired.push(entry.id);
    }
    for (const id of expired) this.remove(id, 'idle');
    return expired.length;
  }

  /** Starts the shared, `unref()`'d idle sweep timer (no-op without an idle timeout). */
  startSweeper(): void {
    const { idleTimeoutMs } = this.#options;
    if (idleTimeoutMs === 0 || this.#timer) return;
    const interval = Math.min(30_000, Math.max(10, Math.floor(idleTimeoutMs / 2)));
    this.#timer = setInterval(() => this.sweep(), interval);
    this.#timer.unref();
  }

  /** Stops the sweep timer. */
  stopSweeper(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #leastRecentlyUsedIdle(): string | undefined {
    for (const entry of this.#entries.values()) if (entry.openRequests === 0) return entry.id;
    return undefined;
  }

  #touch(entry: Entry<S>): void {
    entry.lastActivityAt = Date.now();
    this.#entries.delete(entry.id);
    this.#entries.set(entry.id, entry);
  }

  #emit(event: HttpSessionEvent): void {
    try {
      this.#options.onEvent?.(event);
    } catch (error) {
      this.#options.onError(error);
    }
  }
}
