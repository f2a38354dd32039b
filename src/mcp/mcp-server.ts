import type * as composition from '../composition/index.js';
import { type McpRequestContext, type Server, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import type { FileDocumentConfig, FolderDocumentConfig } from '../documents/document-config.js';
import type { DocumentResource, DocumentStoreView } from '../documents/document-store.js';
import type { Logger } from '../logger.js';
import { definePrompt, Prompt, type PromptSpec } from '../prompts/prompt.js';
import { PromptRegistry, type PromptRegistryView } from '../prompts/prompt-registry.js';
import { toRegistrable, type RegistrableTool } from '../registry/registrable.js';
import type { Tool } from '../registry/tool.js';
import type { ToolPackage } from '../registry/tool-package.js';
import { ToolRegistry, type ToolOverride, type ToolRegistryView, type ToolState } from '../registry/tool-registry.js';
import type { RequestContext } from '../registry/request-context.js';
import type { ResourceEntry, ResourceConfig } from '../resources/resource.js';
import type { ResourceReadContents } from '../resources/resource-contents.js';
import { ResourceRegistry, type ResourceRegistryView } from '../resources/resource-registry.js';
import { contentDocumentResource, type ContentDocumentConfig } from '../resources/content-document.js';
import type { ResourceTemplateEntry, ResourceTemplateConfig } from '../resources/resource-template.js';
import { createDocumentRegistrar, type DocumentRegistrar } from './server/document-support.js';
import type { LiveViews } from './server/live-views.js';
import { createServerParts, createSessionView, middlewareHostOf, type ServerParts } from './server-parts.js';
import { readOnlyViews } from './server/read-only.js';
import { createToolHandle, removeRegistered, type ToolHandle } from './server/tool-handle.js';
import { setViewFactory } from './server/view-factory.js';
import { localRequestContext } from './context/request-context-builder.js';
import { readResource } from './view/resource-handlers.js';
import type { ServerEvents } from './server/server-events.js';
import type { ClusterMembership } from '../state/cluster-membership.js';
import type { ServerInfo } from './server/server-info.js';
import type { BaseMcpServerOptions } from './server/server-options.js';
import type { TaskManager } from '../tasks/engine/task-manager.js';
import { useMiddleware, type Middleware, type MiddlewareScope } from './pipeline/middleware.js';
import { checkArgument, STRING, STRING_ARRAY } from '../option-values.js';

export type { ServerInfo } from './server/server-info.js';
export type { BaseMcpServerOptions } from './server/server-options.js';

/**
 * Abstract base of every MCP server in the toolkit (contract: `seeds/base-mcp-server-api.txt`).
 *
 * It owns the *model*: a {@link ToolRegistry} (every registered tool plus the disabled
 * set) and a `DocumentStore`. Each SDK server that talks to a client is a *view*
 * materialized from the model by {@link BaseMcpServer.createFreshMcpServer}; views read
 * the model on every request, so enabling/disabling a tool or registering a tool or a
 * document, before or after `start()`, reaches every live view and every view made
 * later, and each connected client is sent exactly one `list_changed` per change.
 *
 * Subclasses implement {@link BaseMcpServer.start}, usually by calling a transport function with
 * `this` (`StdioMcpServer` is a thin shell over `serveStdio`, `HttpMcpServer` over `serveHttp`); they
 * may override {@link onStop} and {@link createFreshMcpServer} (the transports build their views with it).
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
  readonly #prompts = new PromptRegistry();
  readonly #resources = new ResourceRegistry();
  /** Toolkit diagnostics go here (stderr by default). */
  protected readonly logger: Logger;
  /** Every live view plus other change sinks; changes fan out through it. */
  protected readonly views: LiveViews;
  /** Lifecycle, registration, toggle, session and tool-call events (see {@link ServerEventMap}). */
  readonly events: ServerEvents;
  /** MCP tasks of every view (store, policy, running work); see `docs/tasks.md`. */
  readonly tasks: TaskManager;
  readonly #parts: ServerParts;
  readonly #documents: DocumentRegistrar;

  /** @param serverInfo - `{ name, version }` plus optional MCP implementation fields. @throws InvalidOptionsError for bad info or options. */
  constructor(
    protected readonly serverInfo: ServerInfo,
    options: BaseMcpServerOptions = {},
  ) {
    const model = { registry: this.registry, prompts: this.#prompts, resources: this.#resources };
    this.#parts = createServerParts(serverInfo, options, model, this);
    ({ logger: this.logger, views: this.views, events: this.events, tasks: this.tasks } = this.#parts);
    const { store, uris, events, logger } = this.#parts;
    this.#documents = createDocumentRegistrar(this, { store, uris, events, logger, resources: this.#resources });
    ({
      tools: this.tools,
      documents: this.documents,
      prompts: this.prompts,
      resources: this.resources,
    } = readOnlyViews({ tools: this.registry, documents: store, prompts: this.#prompts, resources: this.#resources }));
    setViewFactory(this, (context) => this.createFreshMcpServer(context));
  }

  /** The cluster this server is a replica of (the `cluster` option), e.g. for `cluster.sessions.list()`. */
  get cluster(): ClusterMembership | undefined {
    return this.#parts.cluster?.membership;
  }

  /**
   * Adds a middleware around every MCP request the server answers, on both eras and every
   * transport (`docs/middleware.md`): registration order is execution order (the first is the
   * outermost); `scope` limits it to methods and tool names. Allowed after `start()`.
   * @returns a function that removes it again. @throws InvalidOptionsError for a non-function or an empty scope.
   */
  use(middleware: Middleware, scope?: MiddlewareScope): () => void {
    return useMiddleware(this.#parts.model.pipeline, middlewareHostOf(this.#parts), middleware, scope);
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
    return removeRegistered(this.registry, item);
  }

  /**
   * Replaces the whole disabled set; `[]` re-enables every tool. Disabled tools vanish
   * from `tools/list` and are rejected on `tools/call` on every live and future view.
   * Unknown names never throw; they apply when a tool of that name is registered.
   * @throws InvalidOptionsError when `names` is not an array of strings (a lone string is refused, not split).
   */
  setDisabledTools(names: readonly string[]): void {
    this.registry.setDisabled(checkArgument('setDisabledTools()', 'names', names, STRING_ARRAY));
  }

  /**
   * Disables one tool everywhere (see {@link setDisabledTools}). Never throws for unknown names.
   * @throws InvalidOptionsError when `name` is not a string.
   */
  disableTool(name: string): void {
    this.registry.disable(checkArgument('disableTool()', 'name', name, STRING));
  }

  /**
   * Enables one tool everywhere (see {@link setDisabledTools}). Never throws for unknown names.
   * @throws InvalidOptionsError when `name` is not a string.
   */
  enableTool(name: string): void {
    this.registry.enable(checkArgument('enableTool()', 'name', name, STRING));
  }

  /** Renames a tool for clients or replaces its title/description (`undefined` clears; docs/settings.md). @throws ToolOverrideError */
  setToolOverride(name: string, override: ToolOverride | undefined): void {
    this.registry.setOverride(name, override);
  }

  /** Every registered tool with its enabled state, package, client-facing name and override, in registration order. */
  getToolStates(): readonly ToolState[] {
    return this.registry.snapshot();
  }

  /**
   * Adds a remote MCP server (stdio child or HTTP endpoint): its tools are `<namespace>_<tool>` in package `config.name`,
   * toggled like local ones; it (re)connects in the background (docs/composition.md). @throws UpstreamError (`INVALID_UPSTREAM`).
   */
  addUpstream(config: composition.UpstreamConfig): composition.UpstreamHandle {
    return this.#parts.composition.addUpstream(config);
  }

  /** Mounts another server's enabled tools (live) or a package's as `<namespace>_<tool>`. @throws UpstreamError for a taken namespace. */
  mount(source: composition.MountSource, options: composition.MountOptions): composition.MountHandle {
    return this.#parts.composition.mount(source, options);
  }

  /** Every upstream's state (`connected`, `retrying`, ...; never its secrets), in the order added. */
  get upstreams(): readonly composition.UpstreamStatus[] {
    return this.#parts.composition.statuses();
  }

  /**
   * Registers one file as a resource, read lazily on `resources/read`. The name
   * defaults to the file's basename. Allowed after `start()` (clients get `list_changed`).
   * @throws InvalidPathError (`NOT_A_FILE`) when the path is missing or not a file.
   * @throws InvalidOptionsError when the argument is neither a path nor a config with `path` (a `URL` included), or the
   *   config has an unknown key or a value of the wrong type.
   * @throws DuplicateResourceError when a resource registered with `registerResource` has the file's URI.
   */
  registerDocument(pathOrConfig: string | FileDocumentConfig): DocumentResource {
    return this.#documents.document(pathOrConfig);
  }

  /**
   * Registers every matching file under a folder (recursive) as a resource named by
   * its path relative to the folder. No match registers nothing. The folder is also exposed
   * as a resource template `file:///<root>/{+path}` whose `path` completes to its documents.
   * @throws InvalidPathError (`NOT_A_DIRECTORY`) when the path is missing or not a directory.
   * @throws InvalidOptionsError when the argument is neither a path nor a config with `path` (a `URL` included), or the
   *   config has an unknown key or a value of the wrong type or range.
   * @throws DuplicateResourceError when a resource registered with `registerResource` has the URI of a
   *   file found, or a template registered with `registerResourceTemplate` has the folder's URI template
   *   (nothing is registered); a file appearing later at a resource's URI is left out with a warning.
   */
  registerFolder(pathOrConfig: string | FolderDocumentConfig): DocumentResource[] {
    return this.#documents.folder(pathOrConfig);
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
  registerPrompt<S extends StandardSchemaV1>(
    config: Omit<PromptSpec<StandardSchemaV1.InferOutput<S>>, 'arguments'> & { arguments: S },
  ): Prompt<StandardSchemaV1.InferOutput<S>>;
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
  registerResource(config: ResourceConfig): ResourceEntry {
    if (typeof config?.uri === 'string') this.#parts.uris.assertResourceFree(config.uri);
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
  registerContentDocument(config: ContentDocumentConfig): ResourceEntry {
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
  registerResourceTemplate(config: ResourceTemplateConfig): ResourceTemplateEntry {
    if (typeof config?.uriTemplate === 'string') this.#parts.uris.assertTemplateFree(config.uriTemplate);
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
    this.#parts.cluster?.resourceUpdated(uri);
  }

  /**
   * Reads any resource this server offers, as `resources/read` would (exact URI, then documents, then templates),
   * e.g. to embed it in a tool result with `embeddedResource()`. Pass the calling tool's context so the resource's
   * `read()` sees the caller (a `ToolContext` is a `RequestContext`); without one it gets a local context.
   * @returns the `contents` items (text, or base64 `blob`), each with `uri` and `mimeType`.
   * @throws ResourceNotFoundError (`RESOURCE_NOT_FOUND`) when nothing serves `uri`; whatever the resource's `read()`
   *   throws; `DocumentReadError` for an unreadable file.
   */
  async readResource(uri: string, context?: RequestContext): Promise<ResourceReadContents> {
    return readResource(this.#parts.model, uri, () => context ?? localRequestContext());
  }

  /**
   * Connects the server to its transport. Implemented by `StdioMcpServer` and `HttpMcpServer`; a subclass of
   * your own calls `serveStdio(this)` / `serveHttp(this).listen()` (`mcp-toolkit/transports`) or starts its
   * own transport through `serverLifecycleOf(this).start(...)`.
   */
  abstract start(): Promise<void>;

  /**
   * Runs {@link onStop} (the app's hook), then closes the transport (sessions, sockets, stdin), every view and the
   * document store. Idempotent. After it resolves no socket, timer or watcher of the server keeps the process alive.
   * An `onStop()` that throws does not prevent the rest; its error is logged. Calls still running are aborted (reason
   * `shutdown`); a tool that ignores its signal cannot be stopped by Node and may keep the process alive until it
   * returns, so each such call (aborted now or earlier) is named in a warning (after a grace of 200 ms).
   */
  async stop(): Promise<void> {
    return this.#parts.lifecycle.stop(() => this.onStop());
  }

  /** True between a successful `start()` and `stop()`. */
  get isRunning(): boolean {
    return this.#parts.lifecycle.state === 'started';
  }

  /** Resolves once the disabled set as it is now was handed to the `toolState` store. Never rejects (see `toolStateSaveFailed`). */
  flushToolState(): Promise<void> {
    return this.#parts.toolState.flush();
  }

  /**
   * Lifecycle hook run first by {@link stop}, while clients are still connected: override it
   * to release the app's own resources. The default does nothing; an override need not call
   * `super.onStop()`: the transport is closed afterwards (what it added with `serverLifecycleOf(server).onClose`).
   */
  protected async onStop(): Promise<void> {}

  /**
   * Creates a brand-new SDK server (a view) with every registered tool and document,
   * tracked as live until it closes so later changes reach its client. Used once per
   * stdio connection and once per legacy HTTP session (`serveStdio`, `serveHttp`, `connectInMemory` call it).
   *
   * @param context - the SDK factory context (era, auth info) when called from an SDK entry.
   */
  protected createFreshMcpServer(context?: McpRequestContext): Server {
    return createSessionView(this.#parts, context);
  }
}
