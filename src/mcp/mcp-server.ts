import path from 'node:path';
import { type McpRequestContext, type Server, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { FileDocumentConfig, FolderDocumentConfig } from '../documents/document-config.js';
import { DocumentStore, type DocumentResource, type DocumentStoreView } from '../documents/document-store.js';
import { ServerStateError } from '../errors.js';
import { requestStateCodec } from './server/request-state.js';
import { createDefaultLogger, type Logger } from '../logger.js';
import { MemoryToolStateStore } from '../state/memory-tool-state-store.js';
import type { ToolStateStore } from '../state/tool-state-store.js';
import { definePrompt, Prompt, type PromptSpec } from '../prompts/prompt.js';
import { PromptRegistry, type PromptRegistryView } from '../prompts/prompt-registry.js';
import { toRegistrable, type RegistrableTool } from '../registry/registrable.js';
import { Tool } from '../registry/tool.js';
import { ToolPackage } from '../registry/tool-package.js';
import { ToolRegistry, type ToolRegistryView, type ToolState } from '../registry/tool-registry.js';
import type { RequestContext } from '../request-context.js';
import type { RegisteredResource, ResourceConfig } from '../resources/resource.js';
import type { ResourceContents } from '../resources/resource-contents.js';
import { ResourceRegistry, type ResourceRegistryView } from '../resources/resource-registry.js';
import { contentDocumentResource, type ContentDocumentConfig } from '../resources/content-document.js';
import type { RegisteredResourceTemplate, ResourceTemplateConfig } from '../resources/resource-template.js';
import { folderTemplate } from '../documents/folder-template.js';
import { disposeOnClose, makeSessionTools, type SessionToolsFactory } from './server/session-tools.js';
import { fanOutModelChanges } from './server/change-fanout.js';
import { LiveViews } from './server/live-views.js';
import { DOCUMENTS_VIEW, PROMPTS_VIEW, readOnlyView, RESOURCES_VIEW, TOOLS_VIEW } from './server/read-only.js';
import { createToolHandle, type ToolHandle } from './server/tool-handle.js';
import { UriResolver } from './server/uri-resolver.js';
import { setViewFactory } from './server/view-factory.js';
import { localRequestContext } from './context/request-context-builder.js';
import { readResource } from './view/resource-handlers.js';
import { ServerEvents } from './server/server-events.js';
import { ClusterLink } from './server/cluster-link.js';
import type { ClusterMembership } from '../state/cluster-membership.js';
import { ToolStateSync } from './server/tool-state-sync.js';
import { attachObserver, type McpServerObserver } from './server/observer.js';
import type { ServerInfo } from './server/server-info.js';
import { createView, type ViewModel } from './view/view.js';
import { createServerTasks, type TaskOptions } from './server/server-tasks.js';
import type { TaskManager } from '../tasks/task-manager.js';

export type { ServerInfo } from './server/server-info.js';

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

/**
 * Abstract base of every MCP server in the toolkit (contract: `seeds/base-mcp-server-api.txt`).
 *
 * It owns the *model*: a {@link ToolRegistry} (every registered tool plus the disabled
 * set) and a {@link DocumentStore}. Each SDK server that talks to a client is a *view*
 * materialized from the model by {@link BaseMcpServer.createFreshMcpServer}; views read
 * the model on every request, so enabling/disabling a tool or registering a tool or a
 * document, before or after `start()`, reaches every live view and every view made
 * later, and each connected client is sent exactly one `list_changed` per change.
 *
 * Subclasses implement {@link BaseMcpServer.start} (see `StdioMcpServer`, `HttpMcpServer`).
 */
export abstract class BaseMcpServer {
  /**
   * The writable tool model, for subclasses (transports); apps change tools through the facade
   * (`registerTool`, `removeTool`, `setDisabledTools`, ...) and read them through {@link tools}.
   */
  protected readonly registry = new ToolRegistry();
  /** Registered tools and the disabled set, read-only (shared by every view). */
  readonly tools: ToolRegistryView;
  /** Registered documents and folders, read-only (shared by every view); register with `registerDocument` / `registerFolder`. */
  readonly documents: DocumentStoreView;
  /** Registered prompts in registration order, read-only (shared by every view); change with `registerPrompt` / `removePrompt`. */
  readonly prompts: PromptRegistryView;
  /** In-memory / computed resources and resource templates, read-only (shared by every view). */
  readonly resources: ResourceRegistryView;
  readonly #store: DocumentStore;
  readonly #prompts = new PromptRegistry();
  readonly #resources = new ResourceRegistry();
  readonly #uris: UriResolver;
  /** Toolkit diagnostics go here (stderr by default). */
  protected readonly logger: Logger;
  /** Every live view plus other change sinks; changes fan out through it. */
  protected readonly views: LiveViews;
  /** Lifecycle, registration, toggle, session and tool-call events (see {@link ServerEventMap}). */
  readonly events: ServerEvents;
  /** MCP tasks of every view (store, policy, running work); see `docs/tasks.md`. */
  readonly tasks: TaskManager;
  readonly #model: ViewModel;
  readonly #sessionTools: BaseMcpServerOptions['sessionTools'];
  readonly #toolState: ToolStateSync;
  /** Folder roots already exposed through a resource template. */
  readonly #folderTemplates = new Set<string>();
  #state: 'new' | 'started' | 'stopping' | 'stopped' = 'new';
  readonly #cluster?: ClusterLink;

  /** @param serverInfo - `{ name, version }` plus optional MCP implementation fields, sent to clients. */
  constructor(
    protected readonly serverInfo: ServerInfo,
    options: BaseMcpServerOptions = {},
  ) {
    this.logger = options.logger ?? createDefaultLogger();
    const { defaultToolTimeoutMs } = options;
    if (defaultToolTimeoutMs !== undefined && !(defaultToolTimeoutMs > 0 && defaultToolTimeoutMs < 2 ** 31)) {
      throw new RangeError(
        `defaultToolTimeoutMs must be a positive number of milliseconds, got ${defaultToolTimeoutMs}`,
      );
    }
    this.#store = options.documents ?? new DocumentStore();
    this.#uris = new UriResolver(this.#resources, this.#store, this.logger);
    this.tools = readOnlyView<ToolRegistryView>(this.registry, TOOLS_VIEW);
    this.documents = readOnlyView<DocumentStoreView>(this.#store, DOCUMENTS_VIEW);
    this.prompts = readOnlyView<PromptRegistryView>(this.#prompts, PROMPTS_VIEW);
    this.resources = readOnlyView<ResourceRegistryView>(this.#resources, RESOURCES_VIEW);
    const onError = (error: unknown) => this.logger.warn({ err: error }, 'MCP view error');
    this.views = new LiveViews(onError);
    this.events = new ServerEvents((error) => this.logger.error({ err: error }, 'server event listener threw'));
    this.#sessionTools = options.sessionTools;
    this.#toolState = new ToolStateSync(
      options.toolState ?? options.cluster?.toolState ?? new MemoryToolStateStore(),
      this.registry,
      {
        logger: this.logger,
        events: this.events,
      },
    );
    this.tasks = createServerTasks(
      { ...options.tasks, store: options.tasks?.store ?? options.cluster?.tasks },
      this.events,
      onError,
    );
    if (options.observer) attachObserver(this.events, options.observer);
    this.#model = {
      serverInfo,
      registry: this.registry,
      documents: this.#store,
      prompts: this.#prompts,
      resources: this.#resources,
      events: this.events,
      calls: this.views.calls,
      pageSize: options.resourcePageSize,
      defaultToolTimeoutMs,
      tasks: this.tasks,
      requestState: requestStateCodec(options.requestStateKey ?? options.cluster?.requestStateKey),
      onError,
      instructions: () => {
        const parts = [serverInfo.instructions, ...this.registry.instructions()].filter(Boolean);
        return parts.length > 0 ? parts.join('\n\n') : undefined;
      },
    };
    fanOutModelChanges(this.#model, this.views, this.events);
    // A toggle made any way (server methods, tool handles) is saved; pushed remote changes are not
    // saved back (ToolStateSync ignores changes while it applies one).
    this.registry.onChange((change) => change.toggled.length > 0 && this.#toolState.changed());
    setViewFactory(this, (context) => this.createFreshMcpServer(context));
    if (options.cluster) {
      const { views, events, prompts, resources, logger } = this;
      this.#cluster = new ClusterLink(options.cluster, {
        ...{ views, events, prompts, resources, logger },
        isRunning: () => this.isRunning,
      });
    }
  }

  /** The cluster this server is a replica of (the `cluster` option), e.g. for `cluster.sessions.list()`. */
  get cluster(): ClusterMembership | undefined {
    return this.#cluster?.membership;
  }

  /**
   * Registers a tool, or every tool of a package (all-or-nothing). Allowed after
   * `start()`: the tool appears on every live view and clients get `list_changed`.
   * A name that is in the disabled set starts disabled. Besides the toolkit's own `Tool` and
   * `ToolPackage`, llm-chat `Tool` / `ToolPackage` objects are accepted as they are (see
   * `toRegistrable`: schema from `toOpenAI()`, a package's `tutorial()` as its instructions).
   * @returns a {@link ToolHandle} to enable, disable or remove what was registered.
   * @throws DuplicateToolError when a tool name is already registered.
   * @throws InvalidToolError when the item is not a tool or package (the message names
   *   `fromLlmChatTool` / `defineTool`), or a tool's schema cannot be compiled.
   */
  registerTool(item: RegistrableTool): ToolHandle {
    const registrable = toRegistrable(item);
    const tools = this.registry.register(registrable);
    return createToolHandle(this.registry, tools, registrable.name);
  }

  /**
   * Removes a tool by name, or the given `Tool` / every tool of the given `ToolPackage` still
   * registered, in one change: every connected client gets one `list_changed` (none when only
   * disabled tools went, as the list it sees did not change). The disabled set keeps the names.
   * Handles of removed tools become inert (see {@link ToolHandle}). Never throws.
   * @returns false when nothing was registered to remove.
   */
  removeTool(item: string | Tool<never> | ToolPackage): boolean {
    const candidates =
      typeof item === 'string' ? [this.registry.get(item)] : item instanceof ToolPackage ? item.tools : [item];
    return this.registry.remove(candidates.filter((tool): tool is Tool<never> => tool instanceof Tool)).length > 0;
  }

  /**
   * Replaces the whole disabled set; `[]` re-enables every tool. Disabled tools vanish
   * from `tools/list` and are rejected on `tools/call` on every live and future view.
   * Unknown names never throw; they apply when a tool of that name is registered.
   */
  setDisabledTools(names: readonly string[]): void {
    this.registry.setDisabled(names);
    this.#toolState.changed(); // also for names not registered yet (no registry change event)
  }

  /** Disables one tool everywhere (see {@link setDisabledTools}). Never throws for unknown names. */
  disableTool(name: string): void {
    this.registry.disable(name);
    this.#toolState.changed(); // also for names not registered yet (no registry change event)
  }

  /** Enables one tool everywhere (see {@link setDisabledTools}). Never throws for unknown names. */
  enableTool(name: string): void {
    this.registry.enable(name);
    this.#toolState.changed(); // also for names not registered yet (no registry change event)
  }

  /** Every registered tool with its enabled state and package name, in registration order (for a settings UI). */
  getToolStates(): readonly ToolState[] {
    return this.registry.snapshot();
  }

  /**
   * Registers one file as a resource, read lazily on `resources/read`. The name
   * defaults to the file's basename. Allowed after `start()` (clients get `list_changed`).
   * @throws InvalidPathError (`NOT_A_FILE`) when the path is missing or not a file.
   * @throws DuplicateResourceError when a resource registered with `registerResource` has the file's URI.
   */
  registerDocument(pathOrConfig: string | FileDocumentConfig): DocumentResource {
    const document = this.#store.registerDocument(pathOrConfig);
    this.events.safeEmit('documentRegistered', { document });
    return document;
  }

  /**
   * Registers every matching file under a folder (recursive) as a resource named by
   * its path relative to the folder. No match registers nothing. The folder is also exposed
   * as a resource template `file:///<root>/{+path}` whose `path` completes to its documents.
   * @throws InvalidPathError (`NOT_A_DIRECTORY`) when the path is missing or not a directory.
   * @throws DuplicateResourceError when a resource registered with `registerResource` has the URI of a
   *   file found, or a template registered with `registerResourceTemplate` has the folder's URI template
   *   (nothing is registered); a file appearing later at a resource's URI is left out with a warning.
   */
  registerFolder(pathOrConfig: string | FolderDocumentConfig): DocumentResource[] {
    const root = path.resolve(String((typeof pathOrConfig === 'string' ? pathOrConfig : pathOrConfig?.path) ?? '')); // the store's key
    const template = this.#folderTemplates.has(root) ? undefined : folderTemplate(root, this.#store);
    if (template) this.#uris.assertTemplateFree(template.uriTemplate); // before anything is registered
    const documents = this.#store.registerFolder(pathOrConfig);
    for (const document of documents) this.events.safeEmit('documentRegistered', { document });
    if (template) {
      this.#folderTemplates.add(root);
      this.#resources.registerTemplate(template);
    }
    return documents;
  }

  /**
   * Registers a prompt (MCP "Prompts"): a {@link Prompt} instance, or a config object with a
   * `load(args, context)` function (made into a prompt with `definePrompt`). Allowed after
   * `start()`: every connected client gets one `notifications/prompts/list_changed`.
   * @returns the registered prompt.
   * @throws DuplicatePromptError when the name is taken.
   * @throws InvalidPromptError when the definition is unusable (see `Prompt`).
   */
  registerPrompt<Args>(prompt: Prompt<Args>): Prompt<Args>;
  registerPrompt<S extends StandardSchemaWithJSON>(
    config: PromptSpec<StandardSchemaWithJSON.InferOutput<S>> & { arguments: S },
  ): Prompt<StandardSchemaWithJSON.InferOutput<S>>;
  registerPrompt(config: PromptSpec<Record<string, string>>): Prompt<Record<string, string>>;
  registerPrompt(prompt: Prompt<never> | PromptSpec<never>): Prompt<never> {
    const item = prompt instanceof Prompt ? prompt : definePrompt(prompt);
    this.#prompts.register(item);
    return item;
  }

  /** Removes a prompt; clients get `list_changed`. Returns false (and sends nothing) for an unknown name. */
  removePrompt(name: string): boolean {
    return this.#prompts.remove(name);
  }

  /**
   * Registers an in-memory or computed resource at a fixed URI (see `ResourceConfig`). It is
   * listed after the documents and read through its `read()` on every `resources/read`.
   * Allowed after `start()`: clients get one `notifications/resources/list_changed`.
   * @throws DuplicateResourceError when the URI is taken (by a resource or a registered document).
   * @throws InvalidResourceError when the URI is not absolute, the name is empty or `read` is missing.
   */
  registerResource(config: ResourceConfig): RegisteredResource {
    if (typeof config?.uri === 'string') this.#uris.assertResourceFree(config.uri);
    return this.#resources.register(config);
  }

  /**
   * Registers in-memory text as a resource at `content://<name>` (llm-chat-mcp's
   * `registerContentDocument`; see `contentDocumentUri`), MIME type `text/markdown` unless given.
   * `content` is read lazily: a provider function runs on every `resources/read`. Remove it with
   * `removeResource(contentDocumentUri(name))`.
   * @throws DuplicateResourceError when a content document of that name exists.
   * @throws InvalidResourceError when `name` is empty or `content` is not a string or function.
   */
  registerContentDocument(config: ContentDocumentConfig): RegisteredResource {
    return this.registerResource(contentDocumentResource(config));
  }

  /** Removes the resource at `uri`; clients get `list_changed`. False for an unknown URI. */
  removeResource(uri: string): boolean {
    return this.#resources.remove(uri);
  }

  /**
   * Registers a resource template (RFC 6570 `uriTemplate`, see `ResourceTemplateConfig`): shown
   * in `resources/templates/list`, its variables complete through `completion/complete`, and a
   * URI matching no fixed resource or document is read by the first matching template.
   * Allowed after `start()`: clients get one `notifications/resources/list_changed`.
   * @throws DuplicateResourceError when the same URI template is registered.
   * @throws InvalidResourceError for a malformed template or configuration.
   */
  registerResourceTemplate(config: ResourceTemplateConfig): RegisteredResourceTemplate {
    if (typeof config?.uriTemplate === 'string') this.#uris.assertTemplateFree(config.uriTemplate);
    return this.#resources.registerTemplate(config);
  }

  /** Removes the template registered with this URI template; clients get `list_changed`. False when unknown. */
  removeResourceTemplate(uriTemplate: string): boolean {
    return this.#resources.removeTemplate(uriTemplate);
  }

  /**
   * Tells clients subscribed to `uri` that its content changed (`notifications/resources/updated`,
   * MCP "Resources / Subscriptions"), so they read it again. Only subscribers get it: on the
   * legacy era the clients that sent `resources/subscribe` for `uri`; on 2026-07-28 the
   * `subscriptions/listen` streams whose `resourceSubscriptions` contain `uri`. Safe to call
   * for any URI at any time (before `start()` or with no subscriber it does nothing). With the
   * `cluster` option, subscribers on every replica are told.
   */
  sendResourceUpdated(uri: string): void {
    this.views.resourceUpdated(uri);
    this.#cluster?.resourceUpdated(uri);
  }

  /**
   * Reads any resource this server offers, as `resources/read` would (exact URI, then
   * documents, then templates), e.g. to embed it in a tool result with `embeddedResource()`.
   * Pass the calling tool's context so the resource's `read()` sees the caller (a
   * `ToolContext` is a `RequestContext`); without one it gets a local context.
   * @returns the `contents` items (text, or base64 `blob`), each with `uri` and `mimeType`.
   * @throws ResourceNotFoundError (`RESOURCE_NOT_FOUND`) when nothing serves `uri`; whatever the
   *   resource's `read()` throws; `DocumentReadError` for an unreadable file.
   */
  async readResource(uri: string, context?: RequestContext): Promise<ResourceContents> {
    return readResource(this.#model, uri, () => context ?? localRequestContext());
  }

  /** Connects the server to its transport. Implemented by `StdioMcpServer` and `HttpMcpServer`. */
  abstract start(): Promise<void>;

  /**
   * Runs {@link onStop} (the app's hook), then closes the transport (sessions, sockets,
   * stdin), every view and the document store. Idempotent. After it resolves no socket,
   * timer or watcher of the server keeps the process alive. An `onStop()` that throws does
   * not prevent the rest; its error is logged. Calls still running are aborted (reason
   * `shutdown`); a tool that ignores its signal cannot be stopped by Node and may keep the
   * process alive until it returns, so each such call (aborted now or earlier) is named in a
   * warning (after a grace of 200 ms).
   */
  async stop(): Promise<void> {
    if (this.#state === 'stopping' || this.#state === 'stopped') return;
    this.#state = 'stopping';
    try {
      await this.onStop();
    } catch (error) {
      this.logger.error({ err: error }, 'onStop() failed; stopping anyway');
    }
    // Calls still running are aborted (reason `shutdown`) and answered through their own
    // result path, once each, before the transports close.
    await this.views.abortInFlight();
    try {
      await this.closeTransport();
    } finally {
      await this.views.closeAll();
      await this.#toolState.close();
      await this.tasks.stop();
      await this.#cluster
        ?.close()
        .catch((error: unknown) => this.logger.error({ err: error }, 'leaving the cluster failed'));
      await this.#store.close();
      // Tools that ignored their aborted signal keep the process alive: name them.
      await this.views.calls.abandoned.reportAfterStop(this.logger);
      this.#state = 'stopped';
      this.events.safeEmit('stopped');
    }
  }

  /** True between a successful `start()` and `stop()`. */
  get isRunning(): boolean {
    return this.#state === 'started';
  }

  /**
   * Subclasses call this first in `start()`.
   * @throws ServerStateError when the server was already started or stopped.
   */
  protected assertStartable(className: string): void {
    if (this.#state !== 'new') {
      throw new ServerStateError(`${className}.start() cannot run: the server is ${this.#state}.`);
    }
  }

  /** Resolves once the disabled set as it is now was handed to the `toolState` store. Never rejects (see `toolStateSaveFailed`). */
  flushToolState(): Promise<void> {
    return this.#toolState.flush();
  }

  /** Subclasses await this in `start()` before serving: loads the `toolState` store. @throws its non-`ToolStateError` load errors. */
  protected async prepareStart(): Promise<void> {
    await this.#toolState.start();
  }

  /** Subclasses call this at the end of a successful `start()`. */
  protected markStarted(): void {
    this.#state = 'started';
    this.events.safeEmit('started');
  }

  /**
   * Lifecycle hook run first by {@link stop}, while clients are still connected: override it
   * to release the app's own resources. The default does nothing; an override need not call
   * `super.onStop()`: the transport is closed afterwards by {@link closeTransport}.
   */
  protected async onStop(): Promise<void> {}

  /**
   * Closes what the transport holds (HTTP listener and sessions, stdio streams); run by
   * {@link stop} right after {@link onStop}. Implemented by `StdioMcpServer` / `HttpMcpServer`.
   */
  protected async closeTransport(): Promise<void> {}

  /**
   * Creates a brand-new SDK server (a view) with every registered tool and document,
   * tracked as live until it closes so later changes reach its client. Used once per
   * stdio connection and once per legacy HTTP session.
   *
   * @param context - the SDK factory context (era, auth info) when called from an SDK entry.
   */
  protected createFreshMcpServer(context?: McpRequestContext): Server {
    const session = { era: context?.era ?? ('legacy' as const), authInfo: context?.authInfo };
    const own = makeSessionTools(this.#sessionTools, session, this.registry, this.logger);
    const { server } = createView(this.#model, own.tools);
    this.views.add(server);
    disposeOnClose(server, own, this.logger);
    return server;
  }

  /**
   * Like {@link createFreshMcpServer} but not tracked: for per-request views (2026-07-28
   * over HTTP) whose change notifications travel through the handler's notifier instead.
   */
  protected createRequestScopedServer(): Server {
    return createView(this.#model).server;
  }
}
