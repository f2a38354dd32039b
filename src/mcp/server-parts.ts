import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import { disposeOnClose, makeSessionTools } from './server/session-tools.js';
import { Composition } from '../composition/composition.js';
import { createDefaultLogger, type Logger } from '../logger.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ResourceRegistry } from '../resources/resource-registry.js';
import { ResourceInterest } from '../resources/resource-interest.js';
import { MemoryToolStateStore } from '../state/memory-tool-state-store.js';
import type { TaskManager } from '../tasks/engine/task-manager.js';
import { viewTasks } from '../tasks/wire/task-handlers.js';
import { createView, STATELESS_LEGACY_CAPABILITIES, type ViewModel } from './view/view.js';
import { ViewTools } from './view/view-tools.js';
import { setTransportHost, type TransportHost } from './server/transport-host.js';
import { Lifecycle, setServerLifecycle } from './server/server-lifecycle.js';
import { mayRead } from './view/resource-subscriptions.js';
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
import { createServerTasks } from '../tasks/engine/server-tasks.js';
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
  /** Start and stop (also reachable as `serverLifecycleOf(server)` by transports). */
  readonly lifecycle: Lifecycle;
}

/**
 * Builds and connects the server's parts from its options: logger, document store, live views and
 * events, the tool-state store (saved on every toggle), tasks, the observer, the view model (with
 * change fan-out), the cluster link and the lifecycle.
 * @param owner - the `BaseMcpServer` the parts belong to (its pipeline, lifecycle and transport host are
 *   registered for `serverPipeline`, `serverLifecycleOf` and `transportHostOf`).
 * @throws InvalidOptionsError for unusable server info or a shared option of the wrong type or range.
 */
export function createServerParts(
  serverInfo: ServerInfo,
  options: BaseMcpServerOptions,
  { registry, prompts, resources }: ServerRegistries,
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
    interest: new ResourceInterest(),
    events,
    calls: views.calls,
    pageSize: options.resourcePageSize,
    defaultToolTimeoutMs: options.defaultToolTimeoutMs,
    tasks: viewTasks(tasks),
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
  const lifecycle = new Lifecycle({
    events,
    logger,
    loadToolState: () => toolState.start(),
    closeParts: (closeTransport) => closeServerParts(parts, closeTransport),
  });
  setServerLifecycle(owner, lifecycle);
  const isRunning = () => lifecycle.state === 'started';
  const cluster = options.cluster
    ? new ClusterLink(options.cluster, { views, events, prompts, resources, logger, isRunning })
    : undefined;
  const uris = new UriResolver(resources, store, logger);
  const composition = new Composition({
    registry,
    prompts,
    resources,
    documentHas: (uri) => uris.documentHas(uri),
    owner,
    logger,
    clientInfo: { name: serverInfo.name, version: serverInfo.version },
    interest: model.interest,
    resourceUpdated: (uri) => views.resourceUpdated(uri), // this replica's clients: the others have their own links
  });
  composition.onStatus((status) => events.safeEmit('upstreamStatusChanged', status));
  const parts: ServerParts = {
    logger,
    store,
    uris,
    views,
    events,
    toolState,
    tasks,
    model,
    sessionTools: options.sessionTools,
    cluster,
    composition,
    lifecycle,
  };
  setTransportHost(owner, createTransportHost(parts, serverInfo));
  return parts;
}

/**
 * Closes the parts once the app's `onStop()` ran (the lifecycle's `stop`): aborts the calls still in flight (reason
 * `shutdown`, each answered once through its own result path) and closes the upstreams before `closeTransport`, then
 * closes every view, the tool-state store, the tasks, the cluster membership and the document
 * store, even when `closeTransport` throws (its error is rethrown after).
 */
async function closeServerParts(parts: ServerParts, closeTransport: () => Promise<void>): Promise<void> {
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
  const { server } = createView(parts.model, own.tools, session.authInfo);
  parts.views.add(server);
  disposeOnClose(server, own, parts.logger);
  return server;
}

/** An untracked per-request view (2026-07-28 over HTTP): its notifications travel through the handler's notifier. */
function createRequestView(parts: ServerParts): Server {
  return createView(parts.model).server;
}

/** A per-request view for a handshake-era client without a session: it promises no change notifications. */
function createStatelessLegacyView(parts: ServerParts): Server {
  return createView(parts.model, [], undefined, STATELESS_LEGACY_CAPABILITIES).server;
}

/**
 * The {@link TransportHost} of a server: its per-request views, change fan-out, the scopes its tools,
 * prompts, resources and templates require, the listed input schemas (for `Mcp-Param-*` checks) and
 * the upstreams' states (readiness).
 */
function createTransportHost(parts: ServerParts, serverInfo: ServerInfo): TransportHost {
  const { registry, prompts, resources } = parts.model;
  const tools = new ViewTools(registry);
  return {
    logger: parts.logger,
    serverName: serverInfo.name,
    calls: parts.views.calls,
    createRequestScopedServer: () => createRequestView(parts),
    createStatelessLegacyServer: () => createStatelessLegacyView(parts),
    addSink: (sink) => parts.views.addSink(sink),
    requiredScopes: requiredScopesOf({ registry, prompts, resources, documents: parts.store }),
    mayRead: (uri, auth) => mayRead({ resources, documents: parts.store }, uri, auth),
    interest: parts.model.interest,
    inputSchema: (name, auth) => tools.resolve(name, auth).tool?.compiled().listed.inputSchema,
    isRunning: () => parts.lifecycle.state === 'started',
    upstreams: () => parts.composition.statuses(),
  };
}

/** What `server.use()` hands its middleware host: the cluster, the logger, the tools and every other list source. */
export function middlewareHostOf({ cluster, logger, model }: ServerParts): MiddlewareHostParts {
  const lists = [model.prompts, model.resources, model.documents];
  return { logger, registry: model.registry, lists, cluster: cluster?.membership };
}
