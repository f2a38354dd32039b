import type { EventEmitter } from 'eventemitter3';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { DocumentResource } from '../../documents/document-store.js';
import type { ToolStateError } from '../../errors.js';
import type { Tool } from '../../registry/tool.js';
import type { TaskEventInfo } from '../../tasks/engine/server-tasks.js';
import type { ToolOverride } from '../../tool-overrides.js';
import type { UpstreamStatus } from '../../upstream-status.js';

/**
 * Why a session ended: `closed` (its transport closed, or `closeSession()`), `deleted` (the
 * client's DELETE), `idle` (the idle timeout), `evicted` (the session cap), `shutdown`
 * (`stop()`), `unresponsive` (it stopped answering pings; see `pingIntervalMs`).
 */
export type SessionCloseReason = 'closed' | 'deleted' | 'idle' | 'evicted' | 'shutdown' | 'unresponsive';

/** A client connection: a stdio connection, a legacy HTTP session or a `connectInMemory` connection. */
export interface SessionInfo {
  /** `Mcp-Session-Id` on HTTP; undefined on stdio and in memory. */
  sessionId?: string;
  /** `memory` for a connection made by `connectInMemory` (`mcp-toolkit/testing`). */
  transport: 'stdio' | 'http' | 'memory';
}

/** Payloads of the events a server emits on `server.events` (listener argument per event name). */
export interface ServerEventMap {
  /** `start()` finished. */
  started: [];
  /** `stop()` finished. */
  stopped: [];
  /** A tool was registered (also after `start()`). */
  toolRegistered: [{ tool: Tool<never>; enabled: boolean }];
  /** A tool was removed (`removeTool`, or a handle's `remove()`). */
  toolRemoved: [{ tool: Tool<never> }];
  /** A tool's enabled state flipped; `disabled` is the whole disabled set afterwards (persist it). */
  toolToggled: [{ name: string; enabled: boolean; disabled: string[] }];
  /**
   * A registered tool's override (`setToolOverride`: the name clients see, its title or description)
   * changed, once per effective change, whether made here or applied from the `toolState` store
   * (another replica, a pushed state). `name` is the registered name, `exposedName` the name clients
   * list and call now, `override` the override now (absent once cleared). Overrides of names not
   * registered make no event.
   */
  toolOverridden: [{ name: string; exposedName: string; override?: ToolOverride }];
  /**
   * An upstream (`addUpstream`) changed state: `connecting`, `connected`, `retrying` (with `retryAt`,
   * epoch ms, and `lastError`) or `closed`. Its tools entering or leaving the registry are reported
   * as `toolRegistered` / `toolRemoved`. The status never holds the upstream's environment or headers.
   */
  upstreamStatusChanged: [UpstreamStatus];
  /** Saving the disabled set to the `toolState` store failed (logged too); the next change retries. */
  toolStateSaveFailed: [{ error: ToolStateError }];
  /** A document was registered (each file of a folder registration, too). */
  documentRegistered: [{ document: DocumentResource }];
  /** A client connection / legacy HTTP session began. */
  sessionCreated: [SessionInfo];
  /** A client connection / legacy HTTP session ended. */
  sessionClosed: [SessionInfo & { reason: SessionCloseReason }];
  /** A `tools/call` passed validation and `execute` is about to run; `args` are the validated arguments. */
  toolCallStarted: [{ name: string; requestId: string | number; sessionId?: string; args: Record<string, unknown> }];
  /**
   * A `tools/call` finished. `durationMs` in milliseconds; `isError` for tool errors;
   * `error` is what `execute` threw, if anything; `inputRequired` when a 2026-07-28 call
   * ended its round asking the client for input (the retry is a new call). `args` are the
   * validated arguments, or the arguments as sent when they failed validation (then `execute`
   * never ran, `durationMs` is 0 and no `toolCallStarted` came before); `result` is the `CallToolResult` sent (absent when the call ended
   * with a protocol error or asked for input).
   */
  toolCallFinished: [
    {
      name: string;
      requestId: string | number;
      sessionId?: string;
      args: Record<string, unknown>;
      durationMs: number;
      isError: boolean;
      result?: CallToolResult;
      error?: unknown;
      inputRequired?: true;
    },
  ];
  /** A `tools/call` became an MCP task (either wire form); `owner` is the principal it is bound to. */
  taskCreated: [TaskEventInfo];
  /**
   * A task's status or status message changed (`completed`, `failed`, `cancelled` are final).
   * With a shared store, changes made by other processes are reported too.
   */
  taskStatusChanged: [TaskEventInfo & { statusMessage?: string }];
  /**
   * A `resources/read` from a client finished (MCP "Resources"). `ok` is false when it failed,
   * with `error` what was thrown; `durationMs` in milliseconds; `sessionId` on legacy HTTP.
   * Reads made by the app through `server.readResource()` are not reported.
   */
  resourceRead: [{ uri: string; ok: boolean; durationMs: number; error?: unknown; sessionId?: string }];
}

type Emitter = EventEmitter<ServerEventMap>;
type EmitterClass = new () => Emitter;
let installedEmitter: EmitterClass | undefined;

/**
 * Sets the emitter class of servers made on a runtime without Node's `node:events` (the fetch entry installs
 * `eventemitter3`, whose API is Node's). Elsewhere Node's own `EventEmitter` is used: it is loaded with
 * Node itself, while a CommonJS package would start Node's CommonJS loader in every ESM server (bench W0).
 */
export function installEventEmitter(emitterClass: EmitterClass): void {
  installedEmitter ??= emitterClass;
}

function createEmitter(): Emitter {
  const getBuiltin = (globalThis as { process?: Partial<NodeJS.Process> }).process?.getBuiltinModule;
  const NodeEmitter = installedEmitter ? undefined : (getBuiltin?.('node:events') as typeof import('node:events'));
  const emitter = installedEmitter ? new installedEmitter() : NodeEmitter && new NodeEmitter.EventEmitter();
  if (!emitter) throw new Error('ServerEvents needs an EventEmitter: node:events or installEventEmitter().');
  // Node warns past 10 listeners of one event; apps may add many (one per settings tab, per metric).
  (emitter as { setMaxListeners?: (n: number) => void }).setMaxListeners?.(0);
  return emitter as unknown as Emitter;
}

type Listener<K extends keyof ServerEventMap> = (...args: ServerEventMap[K]) => void;

/**
 * The server's typed event emitter (`server.events.on('toolToggled', ...)`), so an app can
 * log, meter and persist its disabled set. Listeners run synchronously; a throwing
 * listener is reported to the server's logger and never breaks a request.
 * Node's `EventEmitter` API (Node's own emitter on Node, Bun and Deno; `eventemitter3` where the fetch
 * entry runs without `node:events`): `on`, `once`, `off`, `addListener`, `removeListener`,
 * `removeAllListeners`, `listeners`, `listenerCount`, `eventNames`, `emit`, and it works with
 * `events.once()` / `events.on()` of `node:events`.
 */
export class ServerEvents {
  readonly #emitter: Emitter = createEmitter();

  constructor(private readonly onListenerError: (error: unknown) => void) {}

  /** Adds `listener` for `event`; returns this. */
  on<K extends keyof ServerEventMap>(event: K, listener: Listener<K>): this {
    this.#emitter.on(event, listener);
    return this;
  }

  /** Same as {@link on}. */
  addListener<K extends keyof ServerEventMap>(event: K, listener: Listener<K>): this {
    return this.on(event, listener);
  }

  /** Adds `listener` for the next `event` only; returns this. */
  once<K extends keyof ServerEventMap>(event: K, listener: Listener<K>): this {
    this.#emitter.once(event, listener);
    return this;
  }

  /** Removes `listener` from `event`; returns this. */
  off<K extends keyof ServerEventMap>(event: K, listener: Listener<K>): this {
    this.#emitter.off(event, listener);
    return this;
  }

  /** Same as {@link off}. */
  removeListener<K extends keyof ServerEventMap>(event: K, listener: Listener<K>): this {
    return this.off(event, listener);
  }

  /** Removes every listener of `event`, or of every event without one; returns this. */
  removeAllListeners(event?: keyof ServerEventMap): this {
    this.#emitter.removeAllListeners(event);
    return this;
  }

  /** The listeners of `event`, in the order they run. */
  listeners<K extends keyof ServerEventMap>(event: K): Listener<K>[] {
    return this.#emitter.listeners(event) as Listener<K>[];
  }

  /** How many listeners `event` has. */
  listenerCount(event: keyof ServerEventMap): number {
    return this.#emitter.listenerCount(event);
  }

  /** The events that have listeners. */
  eventNames(): Array<keyof ServerEventMap> {
    return this.#emitter.eventNames() as Array<keyof ServerEventMap>;
  }

  /** Calls `event`'s listeners with `args`; true when it had any. A listener's exception propagates (see {@link safeEmit}). */
  emit<K extends keyof ServerEventMap>(event: K, ...args: ServerEventMap[K]): boolean {
    return (this.#emitter.emit as (event: K, ...args: ServerEventMap[K]) => boolean)(event, ...args);
  }

  /** Emits without letting a listener's exception escape into protocol code. */
  safeEmit<K extends keyof ServerEventMap>(event: K, ...args: ServerEventMap[K]): void {
    try {
      this.emit(event, ...args);
    } catch (error) {
      this.onListenerError(error);
    }
  }
}
