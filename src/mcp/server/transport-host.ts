import type { AuthInfo, Server } from '@modelcontextprotocol/server';
import type { Logger } from '../../logger.js';
import type { ResourceInterest } from '../../resources/resource-interest.js';
import type { InFlightCalls } from './in-flight-calls.js';
import type { ChangeSink } from './live-views.js';
import { serverSlot } from '../../server-slot.js';

/**
 * What a transport needs from its server besides its long-lived views (`viewFactoryOf`) and its
 * lifecycle (`serverLifecycleOf`): `serveHttp` and the web-standard fetch handler (`toFetchHandler`)
 * both serve from it, so they share one registry, one set of toggles and one fan-out.
 */
export interface TransportHost {
  readonly logger: Logger;
  /** The server's name (the default `resource_name` of the OAuth metadata, the default auth realm). */
  readonly serverName: string;
  /** The running tool calls of every view (a dead connection or closing session aborts its own). */
  readonly calls: InFlightCalls;
  /** A per-request view (2026-07-28, stateless legacy): untracked; changes reach it through a sink. */
  createRequestScopedServer(): Server;
  /**
   * A per-request view for a handshake-era client without a session (stateless legacy): it declares
   * no `listChanged` / `subscribe`, since no notification can reach that client.
   */
  createStatelessLegacyServer(): Server;
  /** Adds a modern handler's notifier to the change fan-out; returns its remover. */
  addSink(sink: ChangeSink): () => void;
  /** The scopes a request for `method` naming an item in `params` needs (the item's `requiredScopes`). */
  requiredScopes(method: string, params: Record<string, unknown>): readonly string[] | undefined;
  /** Whether `auth` may read `uri` (the `resources/read` access rule), for listen streams' resource updates. */
  mayRead(uri: string, auth: AuthInfo | undefined): boolean;
  /** Resource URIs this process's clients subscribed to (held by 2026-07-28 listen streams too). */
  readonly interest?: ResourceInterest;
  /** The listed input schema of a tool this caller may call (for `Mcp-Param-*` checks), else undefined. */
  inputSchema(tool: string, auth: AuthInfo | undefined): unknown;
  /** True while the server is between `start()` and `stop()`. */
  isRunning(): boolean;
  /** The upstream servers' states, for the readiness route. */
  upstreams(): ReadonlyArray<{ name: string; state: string; tools: number }>;
}

const slot = serverSlot<TransportHost>();

/** Called once by the `BaseMcpServer` constructor (through `createServerParts`). */
export const setTransportHost: (server: object, value: TransportHost) => void = slot.set;

/**
 * The transport host of `server`, for the toolkit's own transports (not public API).
 * @throws TypeError when `server` is not a `BaseMcpServer`.
 */
export const transportHostOf: (server: object) => TransportHost = slot.of;
