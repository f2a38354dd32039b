import type { DocumentStore } from '../../documents/document-store.js';
import type { Logger } from '../../logger.js';
import type { ClusterMembership } from '../../state/cluster-membership.js';
import type { ToolStateStore } from '../../state/tool-state-store.js';
import type { McpServerObserver } from './observer.js';
import type { TaskOptions } from '../../tasks/engine/server-tasks.js';
import type { SessionToolsFactory } from './session-tools.js';

/** Options shared by every server class. */
export interface BaseMcpServerOptions {
  /** Where the toolkit logs (never stdout). Default: pino to stderr, level from `MCP_TOOLKIT_LOG_LEVEL` or `info`. */
  logger?: Logger;
  /** Document store to use (e.g. with custom converters or limits). Default: a new `DocumentStore()`. */
  documents?: DocumentStore;
  /**
   * Per-session tools: called once for each long-lived view (a stdio connection, a legacy
   * HTTP session) to give it its own tool instances, e.g. tools holding per-user state.
   * Either a function `(session) => tools` (toolkit or llm-chat tools and packages) or the
   * llm-chat-mcp form `{ create(): { tools, dispose() } }`. They are listed and called like
   * registered tools (the disabled set applies; names must not clash with registered tools:
   * clashing ones are skipped and logged); each instance's `dispose()`, then the set's
   * `dispose()`, runs exactly once when the session ends. Session packages' instructions are
   * not added to the server's `instructions`.
   */
  sessionTools?: SessionToolsFactory;
  /**
   * HMAC key (>= 32 bytes) sealing the 2026-07-28 multi-round-trip `requestState` used by
   * `context.elicit()` / `context.sample()`. Default: random per process; give every
   * process the same key when several processes serve one endpoint.
   */
  requestStateKey?: Uint8Array | string;
  /** Entries per `resources/list` page; clients follow `nextCursor` (MCP pagination). Default 1000. */
  resourcePageSize?: number;
  /**
   * Makes this server one replica of several serving one endpoint (see `createCluster()` and
   * `docs/scaling.md`): the membership's tool-state store is used (unless `toolState` is given),
   * its `requestStateKey` (unless `requestStateKey` is given), prompt/resource list changes and
   * `sendResourceUpdated()` reach the clients of every replica, and legacy HTTP sessions are listed
   * cluster-wide. `stop()` closes the membership.
   */
  cluster?: ClusterMembership;
  /**
   * Keeps the disabled set across restarts (and, with a pushing store, in step with other processes):
   * loaded at `start()` (a saved set replaces the configured one; none saved stores it), saved after
   * every change, pushes applied. See `docs/settings.md`. Default: a `MemoryToolStateStore`.
   */
  toolState?: ToolStateStore;
  /** MCP tasks: the store (default in memory) and policy (TTL, limits, poll hint); see `docs/tasks.md`. */
  tasks?: TaskOptions;
  /**
   * Monitoring callbacks for finished tool calls and client resource reads (llm-chat-mcp's
   * `McpServerObserver` shape); fed from `server.events` (`toolCallFinished`, `resourceRead`).
   */
  observer?: McpServerObserver;
  /**
   * Time limit in ms for one call of any tool that sets no `timeoutMs` of its own (llm-chat tools
   * registered as they are, for instance). When it passes, the call is answered with an `isError`
   * result and the tool's `context.signal` aborts (reason `timeout`). Calls running as MCP tasks
   * use only the tool's own `timeoutMs`. Default: none.
   */
  defaultToolTimeoutMs?: number;
}
