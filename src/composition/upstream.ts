import { ProtocolError, type CallToolResult, type Tool as ListedTool } from '@modelcontextprotocol/server';
import { MissingDependencyError, UpstreamError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import type { RequestContext } from '../registry/request-context.js';
import type { PromptContext } from '../prompts/prompt.js';
import type { ResourceRegistry } from '../resources/resource-registry.js';
import { CatalogMirror, type CatalogForwarder } from './upstream-catalog.js';
import { loadClient, type ClientModule } from './client-loader.js';
import { handshake, openUpstreamAttempt } from './upstream-attempt.js';
import {
  describeUpstream,
  redactValue,
  retryDelayMs,
  secretRedactor,
  type ResolvedUpstreamConfig,
} from './upstream-config.js';
import { translateUpstreamError } from './upstream-errors.js';
import { upstreamToolEntries } from './upstream-tool.js';
import { ToolMirror } from './tool-mirror.js';
import { forwardToolCall, ProgressRouter } from './forwarded-call.js';
import { CallRelay } from './call-relay.js';
import { UpstreamSubscriptions } from './upstream-subscriptions.js';
import type { ResourceInterest } from '../resources/resource-interest.js';
import { ConnectWaiters, type WhenConnectedOptions } from './connect-waiters.js';

type Client = import('@modelcontextprotocol/client').Client;

/** How long a child that closed while connecting may take to finish its stderr (ms). */
const STDERR_SETTLE_MS = 250;

// The state shape is shared with the server's events (mcp/server/ may not import composition/).
export type { UpstreamState, UpstreamStatus } from '../upstream-status.js';
import type { UpstreamState, UpstreamStatus } from '../upstream-status.js';

/** What the connection needs from its owner. */
export interface UpstreamDeps {
  readonly registry: ToolRegistry;
  readonly prompts: PromptRegistry;
  readonly resources: ResourceRegistry;
  /** Whether a document of this server has `uri` (an upstream resource with it is left out). */
  readonly documentHas?: (uri: string) => boolean;
  readonly logger: Logger;
  /** Sent as `clientInfo` to the upstream. */
  readonly clientInfo: { name: string; version: string };
  /** Told after every state change. */
  readonly onStatus: (status: UpstreamStatus) => void;
  /** The resource URIs this process's clients subscribed to; without it upstream resources are not subscribed to. */
  readonly interest?: ResourceInterest;
  /** Tells this process's subscribers of `uri` that it changed (`notifications/resources/updated`). */
  readonly resourceUpdated?: (uri: string) => void;
}

/**
 * One upstream MCP server: keeps a connection to it with the official v2 client (`'auto'` era
 * negotiation: 2026-07-28 where it speaks it, else the `initialize` handshake), mirrors its tools
 * into the registry as one package, forwards calls, and reconnects with backoff when the connection
 * fails (its tools leave the registry meanwhile, in one change).
 */
export class Upstream implements CatalogForwarder {
  readonly #config: ResolvedUpstreamConfig;
  readonly #deps: UpstreamDeps;
  readonly #mirror: ToolMirror;
  readonly #catalog: CatalogMirror;
  readonly #log: Logger;
  readonly #redact: (text: string) => string;
  readonly #progress = new ProgressRouter();
  readonly #relay: CallRelay;
  readonly #subscriptions?: UpstreamSubscriptions;
  #state: UpstreamState = 'connecting';
  #client?: Client;
  #module?: ClientModule;
  #generation = 0;
  #failures = 0;
  #lastError?: string;
  /** Its tools as last listed (kept while it is down: see `UpstreamStatus.knownTools`). */
  #knownTools: readonly string[] = Object.freeze([]);
  #retryAt?: number;
  #retryTimer?: NodeJS.Timeout;
  #pingTimer?: NodeJS.Timeout;
  readonly #waiters: ConnectWaiters;
  #pid?: number;
  /** The client and transport of the attempt running now (closed by `close()` even before it connected). */
  #connecting?: Client;
  #connectingTransport?: { close(): Promise<void> };
  /** Aborts the running attempt's handshake (and the SDK's stdio probe process with it). */
  #attemptAbort?: AbortController;

  constructor(config: ResolvedUpstreamConfig, deps: UpstreamDeps) {
    this.#config = config;
    this.#deps = deps;
    this.#log = deps.logger.child({ upstream: config.name });
    this.#redact = secretRedactor(config);
    this.#waiters = new ConnectWaiters(config.name, () => this.#whereNow());
    this.#relay = new CallRelay(config.name, this.#log, this.#redact);
    this.#mirror = new ToolMirror(deps.registry, config.name, this.#log, (before) => this.#synced(before));
    this.#catalog = new CatalogMirror(deps, config.namespace, this.#log, deps.documentHas);
    const { interest, resourceUpdated } = deps;
    if (interest && resourceUpdated) {
      const serves = (uri: string) => this.#catalog.serves(uri);
      this.#subscriptions = new UpstreamSubscriptions({ interest, serves, resourceUpdated, logger: this.#log });
    }
  }

  /** Starts connecting (in the background; retried with backoff until `close()`). Called once, by its owner. */
  start(): void {
    void this.#attempt();
  }

  /** The upstream's name. */
  get name(): string {
    return this.#config.name;
  }

  /** Its state now. */
  get status(): UpstreamStatus {
    return Object.freeze({
      name: this.#config.name,
      namespace: this.#config.namespace,
      target: describeUpstream(this.#config),
      state: this.#state,
      ...(this.#state === 'connected' && { era: this.#client?.getProtocolEra() }),
      tools: this.#mirror.names.length,
      knownTools: this.#knownTools,
      nameConflicts: this.#mirror.conflicts,
      ...this.#catalogCounts(),
      failures: this.#failures,
      ...(this.#lastError !== undefined && { lastError: this.#lastError }),
      ...(this.#retryAt !== undefined && { retryAt: this.#retryAt }),
      ...(this.#state === 'connected' && this.#pid !== undefined && { pid: this.#pid }),
    });
  }

  /**
   * Resolves the next time it is connected with its tools registered (at once when it is now).
   * Rejects with `UpstreamError` (`UPSTREAM_UNAVAILABLE`) when `timeoutMs` (default 60 s) passes first,
   * when it is closed first, or when it can never connect here (the client package is missing).
   */
  whenConnected(options?: WhenConnectedOptions): Promise<void> {
    if (this.#state === 'connected') return Promise.resolve();
    if (this.#state === 'closed') return Promise.reject(this.#closedError());
    return this.#waiters.wait(options);
  }

  #closedError(): UpstreamError {
    return new UpstreamError('UPSTREAM_UNAVAILABLE', this.#config.name, `Upstream "${this.#config.name}" was closed.`);
  }

  /** Where it is now, for a `whenConnected()` timeout: state, failed attempts, last error (redacted). */
  #whereNow(): string {
    const failures = `${this.#failures} failed attempt${this.#failures === 1 ? '' : 's'}`;
    return `${this.#state}, ${failures}${this.#lastError ? `; last error: ${this.#lastError}` : ''}`;
  }

  /** Ends the connection for good (its child process is stopped) and removes its tools. Idempotent. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#generation += 1;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#pingTimer);
    this.#retryAt = undefined;
    this.#attemptAbort?.abort();
    const clients = [this.#client, this.#connecting];
    const transport = this.#connectingTransport; // closing it ends the SDK's stdio probe sibling too
    this.#client = this.#connecting = this.#connectingTransport = undefined;
    this.#mirror.clear();
    this.#knownTools = Object.freeze([]);
    this.#catalog.clear();
    this.#subscriptions?.close();
    this.#setState('closed');
    this.#waiters.failed('was closed before it connected');
    await transport?.close().catch(() => {});
    await Promise.all(clients.map((client) => client?.close().catch(() => {})));
  }

  /** Forwards one `tools/call` (see `ToolForwarder`), relaying the upstream's logs and input requests to the caller. */
  callTool(name: string, args: Record<string, unknown>, context: ToolContext): Promise<CallToolResult> {
    const { callTimeoutMs: timeoutMs, name: upstream } = this.#config;
    const plain =
      !('url' in this.#config && this.#config.url !== undefined) || this.#client?.getProtocolEra() !== 'modern';
    const call = { upstream, name, args, timeoutMs, meta: this.#logMeta(), plain };
    return this.#relayed(context, () =>
      this.#forward(name, context, (client) => forwardToolCall(client, this.#progress, call, context), false),
    ).then((result) => (result.isError === true ? this.#redactedError(result) : result));
  }

  /**
   * A failed call's result, with the config's secrets blanked: SDK servers turn a thrown error into
   * an `isError` result, so an upstream quoting its own credential in an error would reach the caller.
   */
  #redactedError(result: CallToolResult): CallToolResult {
    const { content, structuredContent } = result;
    return {
      ...result,
      content: redactValue(content, this.#redact) as CallToolResult['content'],
      ...(structuredContent !== undefined && {
        structuredContent: redactValue(structuredContent, this.#redact) as CallToolResult['structuredContent'],
      }),
    };
  }

  /** Forwards `prompts/get` (see `CatalogForwarder`), relaying as `callTool` does. */
  getPrompt(name: string, args: Record<string, string>, context: RequestContext) {
    return this.#relayed(context as PromptContext, () =>
      this.#forward(`prompt "${name}"`, context, (client) =>
        client.getPrompt({ name, arguments: args, _meta: this.#logMeta() }, { signal: context.signal }),
      ),
    );
  }

  /** On 2026-07-28 a request asks for log messages in its `_meta` (no `logging/setLevel` there): all, the caller's own level filters. */
  #logMeta() {
    return this.#client?.getProtocolEra() === 'modern' ? { 'io.modelcontextprotocol/logLevel': 'debug' } : undefined;
  }

  /** Runs a forwarded request with the relay pointed at its caller (see `CallRelay`). */
  async #relayed<T>(caller: PromptContext, run: () => Promise<T>): Promise<T> {
    const relay = this.#relay.enter(caller);
    try {
      return await Promise.race([run(), relay.failed]);
    } finally {
      relay.leave();
    }
  }

  /** Forwards `resources/read`. */
  readResource(uri: string, context: RequestContext) {
    return this.#forward(`resource "${uri}"`, context, (client) =>
      client.readResource({ uri }, { signal: context.signal }),
    );
  }

  /** Forwards `completion/complete`. */
  complete(...[ref, argument, context]: Parameters<CatalogForwarder['complete']>) {
    return this.#forward(`completion of "${argument.name}"`, context, (client) =>
      client.complete({ ref, argument, context: { arguments: { ...context.arguments } } }, { signal: context.signal }),
    );
  }

  /**
   * One request to the upstream on behalf of a client's request: cancelled with it; the upstream's
   * JSON-RPC error is answered with its own code and message (as a `ProtocolError` when
   * `asProtocolError`, else an `UpstreamError` carrying them), a lost connection as an `UpstreamError`.
   */
  async #forward<T>(
    what: string,
    context: RequestContext,
    send: (client: Client) => Promise<T>,
    asProtocolError = true,
  ): Promise<T> {
    const client = this.#client;
    const { name: upstream } = this.#config;
    if (!client || this.#state !== 'connected') {
      throw new UpstreamError(
        'UPSTREAM_UNAVAILABLE',
        upstream,
        `Upstream "${upstream}" is not connected; try again later.`,
      );
    }
    try {
      return await send(client); // a forwarded tools/call follows the caller's abort without making its signal (#27)
    } catch (error) {
      if (context.signal.aborted || error instanceof UpstreamError) throw error;
      // An upstream may echo a credential in its error (an HTTP body quoting the header): blanked there.
      const translated = translateUpstreamError(this.module, upstream, what, error, this.#redact);
      if (translated.connectionLost && client === this.#client) this.#lost(client, error);
      const { rpcCode, message, data } = translated.error;
      // prompts/get, resources/read, completion: the upstream's JSON-RPC error as it is
      if (asProtocolError && rpcCode !== undefined) throw new ProtocolError(rpcCode, message, data);
      throw translated.error;
    }
  }

  private get module(): ClientModule {
    return this.#module!;
  }

  #catalogCounts() {
    const { prompts, resources, templates } = this.#catalog.counts;
    return { prompts, resources, resourceTemplates: templates };
  }

  /** Reads the upstream's prompts, resources and templates (what its capabilities offer) into the catalog. */
  async #syncCatalog(client: Client, which: { prompts?: boolean; resources?: boolean }): Promise<void> {
    const caps = client.getServerCapabilities() ?? {};
    const completions = caps.completions !== undefined;
    const options = { timeout: this.#config.connectTimeoutMs };
    const [prompts, resources, templates] = await Promise.all([
      which.prompts && caps.prompts ? client.listPrompts(undefined, options) : undefined,
      which.resources && caps.resources ? client.listResources(undefined, options) : undefined,
      which.resources && caps.resources ? client.listResourceTemplates(undefined, options) : undefined,
    ]);
    if (client !== this.#client && client !== this.#connecting) return;
    if (prompts) this.#catalog.syncPrompts(prompts.prompts, this, completions);
    if (resources && templates) {
      this.#catalog.syncResources(resources.resources, templates.resourceTemplates, this, completions);
      this.#subscriptions?.reconcile(); // resources it serves now may be wanted, or no longer served
    }
  }

  /** A list_changed of the upstream's prompts or resources: read again, applied as one change. */
  #refreshCatalog(generation: number, which: { prompts?: boolean; resources?: boolean }): void {
    const client = this.#client;
    if (generation !== this.#generation || !client) return;
    this.#syncCatalog(client, which).catch((error: unknown) =>
      this.#log.warn({ reason: this.#messageOf(error) }, 'refreshing prompts or resources after list_changed failed'),
    );
  }

  async #attempt(): Promise<void> {
    const generation = ++this.#generation;
    const current = () => generation === this.#generation;
    this.#retryAt = undefined;
    this.#setState('connecting');
    let client: Client | undefined;
    try {
      const module = (this.#module ??= await loadClient());
      const wiring = { log: this.#log, redact: this.#redact, progress: this.#progress, relay: this.#relay };
      const attempt = await openUpstreamAttempt(module, this.#config, this.#deps.clientInfo, wiring, {
        toolsChanged: (error, tools) => {
          if (!current()) return;
          if (error)
            this.#log.warn({ reason: this.#messageOf(error) }, 'refreshing the tool list after list_changed failed');
          else if (tools) this.#sync(tools);
        },
        promptsChanged: () => this.#refreshCatalog(generation, { prompts: true }),
        resourcesChanged: () => this.#refreshCatalog(generation, { resources: true }),
      });
      const { pid } = attempt;
      const connecting = (client = attempt.client);
      this.#connecting = client;
      this.#connectingTransport = attempt.transport;
      client.onclose = () => {
        if (!current()) return;
        if (this.#state !== 'connecting') return this.#lost(connecting, new Error('the connection closed'));
        // A child that exits at start: its stderr may be read after the close, so wait briefly for its end.
        const waiting = ++this.#generation; // the handshake's rejection is this failure, not a second one
        void attempt.stderrSettled(STDERR_SETTLE_MS).then(() => {
          if (waiting !== this.#generation) return; // closed meanwhile
          const tail = attempt.stderrTail();
          this.#lost(connecting, new Error(`the connection closed${tail ? `; its stderr ended with: ${tail}` : ''}`));
        });
      };
      await handshake(attempt, this.#config.connectTimeoutMs, (this.#attemptAbort = new AbortController()));
      if (!current()) return void client.close().catch(() => {});
      // Legacy: ask for every log message once (relayed to the caller, whose own level filters them).
      if (client.getServerCapabilities()?.logging && client.getProtocolEra() === 'legacy') {
        await client.setLoggingLevel('debug', { timeout: this.#config.connectTimeoutMs }).catch(() => {});
      }
      const { tools } = await client.listTools(undefined, { timeout: this.#config.connectTimeoutMs });
      if (!current()) return void client.close().catch(() => {});
      await this.#syncCatalog(client, { prompts: true, resources: true }).catch((error: unknown) =>
        this.#log.warn(
          { reason: this.#messageOf(error) },
          'reading the prompts or resources failed; serving its tools',
        ),
      );
      if (!current()) return void client.close().catch(() => {});
      this.#client = client;
      this.#pid = pid();
      this.#failures = 0;
      this.#lastError = undefined;
      this.#sync(tools);
      this.#subscriptions?.connected(client);
      this.#startPings(client, generation);
      this.#setState('connected');
      this.#log.info({ era: client.getProtocolEra(), tools: tools.length }, 'upstream connected');
      this.#waiters.connected();
    } catch (error) {
      await client?.close().catch(() => {}); // its child process too, whatever happened meanwhile
      if (current()) this.#failed(error);
    } finally {
      if (this.#connecting === client) this.#connecting = this.#connectingTransport = undefined;
    }
  }

  #sync(tools: readonly ListedTool[]): void {
    const conflicts = this.#mirror.conflicts;
    this.#mirror.sync(upstreamToolEntries(this.#config.namespace, tools, this));
    this.#synced(conflicts);
  }

  /** After a sync: the known tools follow it, and a conflict made or ended is news for the settings page. */
  #synced(conflictsBefore: readonly unknown[]): void {
    this.#knownTools = Object.freeze(this.#mirror.names);
    const changed = JSON.stringify(conflictsBefore) !== JSON.stringify(this.#mirror.conflicts);
    if (changed && this.#state === 'connected') this.#deps.onStatus(this.status);
  }

  #startPings(client: Client, generation: number): void {
    const { pingIntervalMs: every, pingTimeoutMs: timeout } = this.#config;
    if (every === 0) return;
    // One ping at a time: a slow answer is judged by the timeout, not overtaken by the next ping.
    let waiting = false;
    this.#pingTimer = setInterval(() => {
      if (waiting) return;
      waiting = true;
      client.ping({ timeout }).then(
        () => (waiting = false),
        (error: unknown) => {
          if (generation === this.#generation) this.#lost(client, error);
        },
      );
    }, every);
    this.#pingTimer.unref();
  }

  /** A connection that worked ended: its tools leave at once (one change), then retry. */
  #lost(client: Client, error: unknown): void {
    if (client !== this.#client && this.#state === 'connected') return;
    this.#generation += 1;
    clearInterval(this.#pingTimer);
    const wasConnected = this.#state === 'connected';
    this.#client = undefined;
    void client.close().catch(() => {});
    if (wasConnected) {
      this.#log.warn(
        { reason: this.#messageOf(error) },
        'upstream connection lost; its tools are withdrawn until it is back',
      );
    }
    this.#failed(error);
  }

  #failed(error: unknown): void {
    this.#mirror.clear();
    this.#catalog.clear();
    this.#subscriptions?.disconnected();
    this.#failures += 1;
    this.#lastError = this.#messageOf(error);
    const delay = retryDelayMs(this.#config.backoff, this.#failures);
    this.#retryAt = Date.now() + Math.round(delay);
    if (this.#failures === 1 || this.#failures % 10 === 0) {
      this.#log.warn(
        { reason: this.#lastError, failures: this.#failures, retryInMs: Math.round(delay) },
        'upstream unavailable',
      );
    }
    this.#setState('retrying');
    // Retrying cannot install a package: waiting callers learn it now (the retries go on, cheaply).
    if (error instanceof MissingDependencyError) this.#waiters.failed(`cannot connect: ${this.#lastError}`, error);
    const generation = this.#generation;
    this.#retryTimer = setTimeout(() => {
      if (generation === this.#generation) void this.#attempt();
    }, delay);
    this.#retryTimer.unref();
  }

  #messageOf(error: unknown): string {
    return this.#redact(error instanceof Error ? error.message : String(error));
  }

  #setState(state: UpstreamState): void {
    this.#state = state;
    this.#deps.onStatus(this.status);
  }
}
