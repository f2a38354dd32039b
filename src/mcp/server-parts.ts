import { DocumentStore } from '../documents/document-store.js';
import { createDefaultLogger, type Logger } from '../logger.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { ResourceRegistry } from '../resources/resource-registry.js';
import { MemoryToolStateStore } from '../state/memory-tool-state-store.js';
import type { TaskManager } from '../tasks/task-manager.js';
import type { ViewModel } from './view/view.js';
import { fanOutModelChanges } from './server/change-fanout.js';
import { ClusterLink } from './server/cluster-link.js';
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

/** The model's registries, made by the facade. */
export interface ServerRegistries {
  readonly registry: ToolRegistry;
  readonly prompts: PromptRegistry;
  readonly resources: ResourceRegistry;
}

/** What a `BaseMcpServer` holds besides its registries, wired together once by its constructor. */
export interface ServerParts {
  readonly logger: Logger;
  readonly store: DocumentStore;
  readonly uris: UriResolver;
  readonly views: LiveViews;
  readonly events: ServerEvents;
  readonly toolState: ToolStateSync;
  readonly tasks: TaskManager;
  /** What every view reads. */
  readonly model: ViewModel;
  readonly cluster?: ClusterLink;
}

/**
 * Builds and connects the server's parts from its options: logger, document store, live views and
 * events, the tool-state store (saved on every toggle), tasks, the observer, the view model (with
 * change fan-out) and the cluster link.
 * @param isRunning - whether the server is between `start()` and `stop()` (for the cluster link).
 * @param owner - the `BaseMcpServer` the parts belong to (its pipeline is registered for `serverPipeline`).
 */
export function createServerParts(
  serverInfo: ServerInfo,
  options: BaseMcpServerOptions,
  { registry, prompts, resources }: ServerRegistries,
  isRunning: () => boolean,
  owner: object,
): ServerParts {
  const logger = options.logger ?? createDefaultLogger();
  const store = options.documents ?? new DocumentStore();
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
    cluster,
  };
}

/**
 * Closes the parts once the app's `onStop()` ran: aborts the calls still in flight (reason
 * `shutdown`, each answered once through its own result path) before `closeTransport`, then
 * closes every view, the tool-state store, the tasks, the cluster membership and the document
 * store, even when `closeTransport` throws (its error is rethrown after).
 */
export async function closeServerParts(parts: ServerParts, closeTransport: () => Promise<void>): Promise<void> {
  await parts.views.abortInFlight();
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
  }
}
