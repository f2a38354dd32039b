import { EventEmitter } from 'eventemitter3';
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

/**
 * The server's typed event emitter (`server.events.on('toolToggled', ...)`), so an app can
 * log, meter and persist its disabled set. Listeners run synchronously; a throwing
 * listener is reported to the server's logger and never breaks a request.
 * The emitter is `eventemitter3` (Node's `EventEmitter` API without `node:events`, so the server also
 * runs on workerd): `on`, `once`, `off`, `addListener`, `removeListener`, `removeAllListeners`,
 * `listeners`, `listenerCount`, `eventNames`, and it works with `events.once()` / `events.on()`.
 */
export class ServerEvents extends EventEmitter<ServerEventMap> {
  constructor(private readonly onListenerError: (error: unknown) => void) {
    super();
  }

  /** Emits without letting a listener's exception escape into protocol code. */
  safeEmit<K extends keyof ServerEventMap>(event: K, ...args: ServerEventMap[K]): void {
    try {
      (this.emit as (event: K, ...args: ServerEventMap[K]) => boolean)(event, ...args);
    } catch (error) {
      this.onListenerError(error);
    }
  }
}
