import { ServerStateError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { holdBackgroundWork } from '../../lazy-module.js';
import { serverSlot } from '../../server-slot.js';
import type { ServerEvents } from './server-events.js';

/**
 * Where a server is in its life: `new` (startable), `starting` (a transport is opening),
 * `started` (serving; `server.isRunning`), `stopping` (`stop()` runs), `stopped` (final).
 */
export type ServerState = 'new' | 'starting' | 'started' | 'stopping' | 'stopped';

/**
 * A server's start and stop, as a value that transport functions (`serveStdio`, `serveHttp`,
 * your own) use instead of subclass hooks. Get it with {@link serverLifecycleOf}.
 */
export interface ServerLifecycle {
  /** The current state (see {@link ServerState}). */
  readonly state: ServerState;
  /**
   * Starts the server once: loads its `toolState` store, runs `open` (the transport opening,
   * which registers its closing with {@link onClose}), then marks the server started (emits
   * `started`) and resolves with what `open` returned. When loading the store or `open` fails the
   * server is `new` again (startable) and the error is rethrown.
   * @param label - who starts, for the error message (e.g. `StdioMcpServer.start()`).
   * @throws ServerStateError when the server is not `new` (already starting, started or stopped),
   *   or `stop()` ran while it was starting (what `open` registered is closed then).
   */
  start<T>(label: string, open: () => T | Promise<T>): Promise<T>;
  /**
   * Adds what `stop()` closes right after the app's `onStop()` (sockets, sessions, streams), in
   * the order added; each runs once. Added after the transport was closed, it runs at once.
   */
  onClose(close: () => void | Promise<void>): void;
}

/**
 * What the transport functions take: any mcp-toolkit server (an instance of a `BaseMcpServer`
 * subclass). Written by shape so the transports need not import the server classes; the server's
 * own parts are looked up from it, so another object with these members throws `TypeError`.
 */
export interface ServableServer {
  /** The server's events (`sessionCreated`, `sessionClosed`, ...). */
  readonly events: ServerEvents;
  /** Stops the server (a stdio connection that ends stops its server). */
  stop(): Promise<void>;
}

/** What a lifecycle runs on: the server's events, logger, tool-state store and the closing of its parts. */
export interface LifecycleParts {
  readonly events: ServerEvents;
  readonly logger: Logger;
  /** Loads the `toolState` store (`start()`). */
  loadToolState(): Promise<void>;
  /** Closes every part of the server, running `closeTransport` after the calls in flight were aborted. */
  closeParts(closeTransport: () => Promise<void>): Promise<void>;
}

/** The one {@link ServerLifecycle} of a server, made by its constructor; `stop()` is the server's. */
export class Lifecycle implements ServerLifecycle {
  readonly #parts: LifecycleParts;
  #state: ServerState = 'new';
  #closers: Array<() => void | Promise<void>> = [];
  #transportClosed = false;

  constructor(parts: LifecycleParts) {
    this.#parts = parts;
  }

  get state(): ServerState {
    return this.#state;
  }

  async start<T>(label: string, open: () => T | Promise<T>): Promise<T> {
    if (this.#state !== 'new') throw new ServerStateError(`${label} cannot run: the server is ${this.#state}.`);
    this.#state = 'starting';
    // Background work (watchers, the search index, upstreams) waits until the transport is open: see afterPendingIo.
    const release = holdBackgroundWork();
    let value: T;
    try {
      await this.#parts.loadToolState();
      this.#assertStarting(label);
      value = await open();
    } catch (error) {
      if (this.#state === 'starting') this.#state = 'new';
      throw error;
    } finally {
      release();
    }
    this.#assertStarting(label);
    this.#state = 'started';
    this.#parts.events.safeEmit('started');
    return value;
  }

  onClose(close: () => void | Promise<void>): void {
    if (!this.#transportClosed) {
      this.#closers.push(close);
      return;
    }
    void (async () => close())().catch((error: unknown) =>
      this.#parts.logger.error({ err: error }, 'closing a transport opened during stop() failed'),
    );
  }

  /**
   * `server.stop()`: runs `onStop` (errors logged), then closes the parts with the transports
   * between. Idempotent; the state is `stopped` and `stopped` is emitted even when closing throws.
   */
  async stop(onStop: () => Promise<void>): Promise<void> {
    if (this.#state === 'stopping' || this.#state === 'stopped') return;
    this.#state = 'stopping';
    try {
      await onStop();
    } catch (error) {
      this.#parts.logger.error({ err: error }, 'onStop() failed; stopping anyway');
    }
    try {
      await this.#parts.closeParts(() => this.#closeTransports());
    } finally {
      this.#state = 'stopped';
      this.#parts.events.safeEmit('stopped');
    }
  }

  /** Runs every closer once, in order; the first error is rethrown after all ran. */
  async #closeTransports(): Promise<void> {
    this.#transportClosed = true;
    const closers = this.#closers;
    this.#closers = [];
    let failure: { error: unknown } | undefined;
    for (const close of closers) {
      try {
        await close();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }

  #assertStarting(label: string): void {
    if (this.#state !== 'starting') {
      throw new ServerStateError(`${label} did not complete: stop() ran while the server was starting.`);
    }
  }
}

const slot = serverSlot<Lifecycle>();

/** Called once by the server's constructor (through its parts). */
export const setServerLifecycle: (server: object, value: Lifecycle) => void = slot.set;

/**
 * The lifecycle of `server` (any `BaseMcpServer`), for transport functions: `serveStdio` and
 * `serveHttp` start a server through it, and a transport of your own does the same.
 * @example
 * ```ts
 * const lifecycle = serverLifecycleOf(server);
 * const socket = await lifecycle.start('myTransport()', async () => {
 *   const opened = await openMySocket();
 *   lifecycle.onClose(() => opened.close()); // run by server.stop() after onStop()
 *   return opened;
 * });
 * ```
 * @throws TypeError when `server` is not an mcp-toolkit server.
 */
export function serverLifecycleOf(server: object): ServerLifecycle {
  return slot.of(server);
}
