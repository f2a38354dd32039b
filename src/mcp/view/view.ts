import type { AuthInfo, RequestStateCodec, Server, ServerCapabilities } from '@modelcontextprotocol/server';
import type { DocumentBackend } from '../server/document-support.js';
import type { PromptRegistry } from '../../prompts/prompt-registry.js';
import type { Tool } from '../../registry/tool.js';
import type { ToolRegistry } from '../../registry/tool-registry.js';
import type { ResourceRegistry } from '../../resources/resource-registry.js';
import type { ResourceInterest } from '../../resources/resource-interest.js';
import { installCompletionHandlers } from './completion-handlers.js';
import type { InFlightCalls } from '../server/in-flight-calls.js';
import type { InputState } from '../context/input-rounds.js';
import { installPromptHandlers } from './prompt-handlers.js';
import { installResourceHandlers } from './resource-handlers.js';
import { installSubscriptionHandlers, mayRead, ResourceSubscriptions } from './resource-subscriptions.js';
import type { ServerInfo } from '../server/server-info.js';
import type { ServerEvents } from '../server/server-events.js';
import { installToolHandlers } from './tool-handlers.js';
import { ViewServer, type ViewServerOptions } from '../sdk-internals/view-server.js';
import type { HandlerRoutes, RequestPipeline } from '../pipeline/request-pipeline.js';
import type { ToolCallDeps } from './tool-call.js';
import { ViewTools } from './view-tools.js';

/** What a view is built from: the shared model owned by `BaseMcpServer`. */
export interface ViewModel {
  readonly serverInfo: ServerInfo;
  readonly registry: ToolRegistry;
  readonly documents: DocumentBackend;
  /** Registered prompts (`prompts/*`, completion of their arguments). */
  readonly prompts: PromptRegistry;
  /** In-memory / computed resources and resource templates. */
  readonly resources: ResourceRegistry;
  readonly events: ServerEvents;
  /** Seals the 2026-07-28 multi-round-trip `requestState` (HMAC). */
  readonly requestState: RequestStateCodec<InputState>;
  /** The tool calls running on every view (aborted by `stop()` and by closing sessions). */
  readonly calls: InFlightCalls;
  /** Resource URIs this process's clients subscribed to (held by legacy views' `resources/subscribe`). */
  readonly interest?: ResourceInterest;
  /** Entries per `resources/list` page (default 1000). */
  readonly pageSize?: number;
  /** Time limit (ms) of a directly answered call to a tool without its own `timeoutMs`. */
  readonly defaultToolTimeoutMs?: number;
  /** The request pipeline every handler of every view is registered through (one per server). */
  readonly pipeline: RequestPipeline;
  /** MCP tasks (both eras), from `tasks/wire/`; without it no view offers tasks. */
  readonly tasks?: ViewTasks;
  /** Server instructions followed by every tool package's instructions, or undefined. */
  instructions(): string | undefined;
  onError(error: unknown): void;
}

/**
 * Capabilities every view declares up front, even with an empty registry, so that a
 * later registration or toggle never needs a capability change (MCP lifecycle:
 * capabilities are fixed at initialization).
 */
export const VIEW_CAPABILITIES: ServerCapabilities = Object.freeze({
  tools: { listChanged: true },
  resources: { listChanged: true, subscribe: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
});

/**
 * MCP tasks on a view (both eras), plugged in by the server from `tasks/wire/`, the folder that
 * owns tasks: the view knows only this much of them.
 */
export interface ViewTasks {
  /** The tasks capability (2025-11-25) and extension id (2026-07-28) the view declares. */
  readonly capability: NonNullable<ViewServerOptions['tasks']>;
  /** Installs `tools/call` with tasks (replacing the plain one) and the task methods on one view. */
  install(server: Server, routes: HandlerRoutes, deps: ToolCallDeps): void;
}

/**
 * Capabilities of a view answering one POST of a handshake-era client without a session
 * (`HttpMcpServer` with `stateless`, `toFetchHandler`): no stream outlives the request, so no
 * `list_changed` or `resources/updated` notification can reach that client, and none is promised.
 */
export const STATELESS_LEGACY_CAPABILITIES: ServerCapabilities = Object.freeze({
  tools: {},
  resources: {},
  prompts: {},
  completions: {},
  logging: {},
});

/**
 * Materializes one SDK server (a *view*) from the model. The view holds no copy of
 * the tools or documents: its handlers read the shared model on each request, so a
 * view costs the same whether 1 or 1,000 tools are registered, and every change to
 * the model is seen by every view at once.
 *
 * `notifications/resources/updated` leaves the view only for a URI the client may read
 * (`mayRead`, the `resources/read` rule): on the legacy era for its `resources/subscribe` set,
 * checked with the subscriber's auth info; on 2026-07-28 (stdio, in memory) with `sessionAuth`,
 * the auth info the connection was opened with.
 */
export function createView(
  model: ViewModel,
  sessionTools: readonly Tool<never>[] = [],
  sessionAuth?: AuthInfo,
  capabilities: ServerCapabilities = VIEW_CAPABILITIES,
): { server: Server; tools: ViewTools } {
  const { instructions: _ignored, ...implementation } = model.serverInfo;
  // A view that promises no resource updates (stateless legacy) holds no interest: none can reach its client.
  const interest = capabilities.resources?.subscribe ? model.interest : undefined;
  const subscriptions = new ResourceSubscriptions(interest);
  const server = new ViewServer(implementation, {
    capabilities,
    ...(model.tasks && { tasks: model.tasks.capability }),
    wantsResourceUpdate: (uri, modern) =>
      modern
        ? mayRead(model, uri, sessionAuth)
        : subscriptions.has(uri) && mayRead(model, uri, subscriptions.authOf(uri)),
    instructions: model.instructions(),
    ...(interest && { interest }),
    requestState: { verify: (state, ctx) => model.requestState.verify(state, ctx) },
  });
  server.onerror = (error) => model.onError(error);
  if (interest) {
    const previous = server.onclose;
    server.onclose = () => {
      subscriptions.clear();
      previous?.();
    };
  }
  const tools = new ViewTools(model.registry, sessionTools);
  const toolDeps = {
    server,
    tools,
    events: model.events,
    requestState: model.requestState,
    calls: model.calls,
    defaultTimeoutMs: model.defaultToolTimeoutMs,
  };
  const routes = model.pipeline.routes(server);
  installToolHandlers(routes, toolDeps);
  model.tasks?.install(server, routes, toolDeps);
  installResourceHandlers(server, routes, model);
  installSubscriptionHandlers(routes, subscriptions, model);
  installPromptHandlers(server, routes, model.prompts, model.requestState);
  installCompletionHandlers(server, routes, model);
  return { server, tools };
}
