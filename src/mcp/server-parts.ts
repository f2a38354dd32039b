import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import { disposeOnClose, makeSessionTools } from './server/session-tools.js';
import { Composition } from '../composition/composition.js';
import { createDefaultLogger, type Logger } from '../logger.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ResourceRegistry } from '../resources/resource-registry.js';
import { MemoryToolStateStore } from '../state/memory-tool-state-store.js';
import type { TaskManager } from '../tasks/task-manager.js';
import { createView, STATELESS_LEGACY_CAPABILITIES, type ViewModel } from './view/view.js';
import { ViewTools } from './view/view-tools.js';
import type { TransportHost } from './server/transport-host.js';
import { fanOutModelChanges } from './server/change-fanout.js';
import { ClusterLink } from './server/cluster-link.js';
import { requiredScopesOf } from './server/required-scopes.js';
import { createDocumentStore, type DocumentBackend } from './server/document-support.js';
import { checkServerArguments } from './server/check-server-options.js';
import { LiveViews } from './server/live-views.js';
import { attachObserver } from './server/observer.js';
import { requestStateCodec } from './server/request-state.js';
import { ServerEvents } from './server/server-events.js';
import type { ServerInfo } from './server/server-info.js';
import type { BaseMcpServerOptions } from './server/server-options.js';
import { createServerTasks } from './server/server-tasks.js';
import { ToolStateSync } from './server/tool-state-sync.js';
import { UriResolver } from './server/uri-resolver.js';
import { RequestPipeline } from './pipeline/request-pipeline.js';
import { setServerPipeline } from './pipeline/server-pipelines.js';
import { middlewareErrorStage } from './pipeline/middleware-errors.js';
import type { MiddlewareHostParts } from './pipeline/middleware.js';

/** The model's registries, made by the facade. */
export interface ServerRegistries {
  readonly registry: ToolRegistry;
  readonly prompts: PromptRegistry;
  readonly resources: ResourceRegistry;
}

/** What a `BaseMcpServer` holds besides its registries, wired together once by its constructor. */
export interface ServerParts {
  readonly logger: Logger;
  readonly store: DocumentBackend;
  readonly uris: UriResolver;
  readonly views: LiveViews;
  readonly events: ServerEvents;
  readonly toolState: ToolStateSync;
  readonly tasks: TaskManager;
  /** What every view reads. */
  readonly model: ViewModel;
  /** The `sessionTools` option: tools made for each connection or legacy session. */
  readonly sessionTools: BaseMcpServerOptions['sessionTools'];
  readonly cluster?: ClusterLink;
  /** Upstream servers and mounts feeding the tool registry (`addUpstream`, `mount`). */
  readonly composition: Composition;
}

/**
 * Builds and connects the server's parts from its options: logger, document store, live views and
 * events, the tool-state store (saved on every toggle), tasks, the observer, the view model (with
 * change fan-out) and the cluster link.
 * @param isRunning - whether the server is between `start()` and `stop()` (for the cluster link).
 * @param owner - the `BaseMcpServer` the parts belong to (its pipeline is registered for `serverPipeline`).
 * @throws InvalidOptionsError for unusable server info or a shared option of the wrong type or range.
 */
export function createServerParts(
  serverInfo: ServerInfo,
  options: BaseMcpServerOptions,
  { registry, prompts, resources }: ServerRegistries,
  isRunning: () => boolean,
  owner: object,
): ServerParts {
  checkServerArguments(owner.constructor.name, serverInfo, options);
  const logger = options.logger ?? createDefaultLogger();
  const store = options.documents ?? createDocumentStore(owner);
  const onError = (error: unknown) => logger.warn({ err: error }, 'MCP view error');
  const views = new LiveViews(onError);
  const events = new ServerEvents((error) => logger.error({ err: error }, 'server event listener threw'));
  const toolStore = options.toolState ?? options.cluster?.toolState ?? new MemoryToolStateStore();
  const toolState = new ToolStateSync(toolStore, registry, { logger, events });
  const taskStore = options.tasks?.store ?? options.cluster?.tasks;
  const tasks = createServerTasks({ ...options.tasks, store: taskStore }, events, onError);
  if (options.observer) attachObserver(events, options.observer);
  const pipeline = new RequestPipeline(middlewareErrorStage);
  setServerPipeline(owner, pipeline);
  const model: ViewModel = {
    serverInfo,
    registry,
    documents: store,
    prompts,
    resources,
    events,
    calls: views.calls,
    pageSize: options.resourcePageSize,
    defaultToolTimeoutMs: options.defaultToolTimeoutMs,
    tasks,
    pipeline,
    requestState: requestStateCodec(
      options.requestStateKey ?? options.cluster?.requestStateKeys ?? options.cluster?.requestStateKey,
    ),
    onError,
    instructions: () => {
      const parts = [serverInfo.instructions, ...registry.instructions()].filter(Boolean);
      return parts.length > 0 ? parts.join('\n\n') : undefined;
    },
  };
  fanOutModelChanges(model, views, events);
  // A toggle made any way (server methods, tool handles) is saved; pushed remote changes are not
  // saved back (ToolStateSync ignores changes while it applies one).
  registry.onChange((change) => (change.toggled.length > 0 || !!change.overridden?.length) && toolState.changed());
  registry.onStateChange(() => toolState.changed()); // also names not registered yet (no change event)
  const cluster = options.cluster
    ? new ClusterLink(options.cluster, { views, events, prompts, resources, logger, isRunning })
    : undefined;
  return {
    logger,
    store,
    uris: new UriResolver(resources, store, logger),
    views,
    events,
    toolState,
    tasks,
    model,
    sessionTools: options.sessionTools,
    cluster,
    composition: new Composition({
      registry,
      logger,
      clientInfo: { name: serverInfo.name, version: serverInfo.version },
    }),
  };
}

/**
 * Closes the parts once the app's `onStop()` ran: aborts the calls still in flight (reason
 * `shutdown`, each answered once through its own result path) and closes the upstreams before `closeTransport`, then
 * closes every view, the tool-state store, the tasks, the cluster membership and the document
 * store, even when `closeTransport` throws (its error is rethrown after).
 */
export async function closeServerParts(parts: ServerParts, closeTransport: () => Promise<void>): Promise<void> {
  await parts.views.abortInFlight();
  await parts.composition.close();
  try {
    await closeTransport();
  } finally {
    await parts.views.closeAll();
    await parts.toolState.close();
    await parts.tasks.stop();
    await parts.cluster
      ?.close()
      .catch((error: unknown) => parts.logger.error({ err: error }, 'leaving the cluster failed'));
    await parts.store.close();
    // Tools that ignored their aborted signal keep the process alive: name them.
    await parts.views.calls.abandoned.reportAfterStop(parts.logger);
  }
}

/**
 * A tracked view for one connection (stdio) or legacy session: the model plus the session's own
 * tools (the `sessionTools` option), live until it closes so later changes reach its client.
 */
export function createSessionView(parts: ServerParts, context?: McpRequestContext): Server {
  const session = { era: context?.era ?? ('legacy' as const), authInfo: context?.authInfo };
  const own = makeSessionTools(parts.sessionTools, session, parts.model.registry, parts.logger);
  const { server } = createView(parts.model, own.tools);
  parts.views.add(server);
  disposeOnClose(server, own, parts.logger);
  return server;
}

/** An untracked per-request view (2026-07-28 over HTTP): its notifications travel through the handler's notifier. */
export function createRequestView(parts: ServerParts): Server {
  return createView(parts.model).server;
}

/** A per-request view for a handshake-era client without a session: it promises no change notifications. */
function createStatelessLegacyView(parts: ServerParts): Server {
  return createView(parts.model, [], STATELESS_LEGACY_CAPABILITIES).server;
}

/**
 * The {@link TransportHost} of a server: its per-request views, change fan-out, the scopes its tools,
 * prompts, resources and templates require, the listed input schemas (for `Mcp-Param-*` checks) and
 * the upstreams' states (readiness).
 */
export function createTransportHost(
  parts: ServerParts,
  serverInfo: ServerInfo,
  createRequestScopedServer: () => Server,
  isRunning: () => boolean,
): TransportHost {
  const { registry, prompts, resources } = parts.model;
  const tools = new ViewTools(registry);
  return {
    logger: parts.logger,
    serverName: serverInfo.name,
    createRequestScopedServer,
    createStatelessLegacyServer: () => createStatelessLegacyView(parts),
    addSink: (sink) => parts.views.addSink(sink),
    requiredScopes: requiredScopesOf({ registry, prompts, resources, documents: parts.store }),
    inputSchema: (name, auth) => tools.resolve(name, auth).tool?.compiled().listed.inputSchema,
    isRunning,
    upstreams: () => parts.composition.statuses(),
  };
}

/** What `server.use()` hands its middleware host: the cluster, the logger, the tools and every other list source. */
export function middlewareHostOf({ cluster, logger, model }: ServerParts): MiddlewareHostParts {
  const lists = [model.prompts, model.resources, model.documents];
  return { logger, registry: model.registry, lists, cluster: cluster?.membership };
}
