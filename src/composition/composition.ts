import { UpstreamError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { ToolRegistry } from '../registry/tool-registry.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import type { ResourceRegistry } from '../resources/resource-registry.js';
import type { ResourceInterest } from '../resources/resource-interest.js';
import { assertNamespace } from './namespace.js';
import { mountSource, type MountHandle, type MountOptions, type MountSource } from './mount.js';
import { resolveUpstreamConfig, type UpstreamConfig } from './upstream-config.js';
import type { UpstreamStatus } from './upstream.js';
import { DeferredUpstream } from './deferred-upstream.js';
import type { WhenConnectedOptions } from './connect-waiters.js';

/** An upstream added with `addUpstream()`: its state, and a way to wait for it or end it. */
export interface UpstreamHandle {
  readonly name: string;
  /** Its state now (never its environment, headers or arguments). */
  readonly status: UpstreamStatus;
  /**
   * Resolves the next time it is connected with its tools registered (at once when it is).
   * @param options - `timeoutMs`: the longest wait (default 60000 ms).
   * @returns a promise that rejects with `UpstreamError` (code `UPSTREAM_UNAVAILABLE`, naming the upstream,
   *   its state and its last error, secrets blanked) when `timeoutMs` passes first, when the upstream is
   *   closed first (`close()`, `stop()`), or when it can never connect in this process (the
   *   `@modelcontextprotocol/client` package is missing); with `InvalidOptionsError` for a bad option.
   *   The upstream keeps retrying in the background after a timeout. While pending, the wait holds the
   *   process open (at most `timeoutMs`), so it settles even when awaited at an app's top level with
   *   nothing else running. (The upstream's retry timer never holds it; an attempt under way or a connected
   *   upstream's child or connection may, until `close()` or `stop()`.)
   */
  whenConnected(options?: WhenConnectedOptions): Promise<void>;
  /** Disconnects it for good (a stdio child is stopped) and removes its tools in one change. */
  close(): Promise<void>;
}

/** What a server's composition needs. */
export interface CompositionDeps {
  readonly registry: ToolRegistry;
  /** Where upstreams' prompts, resources and templates go. */
  readonly prompts: PromptRegistry;
  readonly resources: ResourceRegistry;
  /** Whether a document of the server has `uri` (an upstream resource with it is left out). */
  readonly documentHas?: (uri: string) => boolean;
  readonly logger: Logger;
  /** The server these are part of (a mount of a server that mounts it back is refused). */
  readonly owner?: object;
  /** Sent to upstreams as `clientInfo`. */
  readonly clientInfo: { name: string; version: string };
  /** The resource URIs this process's clients subscribed to (upstream resources among them are subscribed to upstream). */
  readonly interest?: ResourceInterest;
  /** Tells this process's subscribers of `uri` that it changed (an upstream's `notifications/resources/updated`). */
  readonly resourceUpdated?: (uri: string) => void;
}

/** Which servers each server mounts (for the cycle guard of `mount()`). */
const mountedServers = new WeakMap<object, object[]>(); // one entry per mount: a server may be mounted twice

/** The chain of mounts from `from` to `to` (`[from, ..., to]`), if `from` mounts `to` directly or through others. */
function mountPath(from: object, to: object, seen = new Set<object>()): object[] | undefined {
  if (from === to) return [from];
  if (seen.has(from)) return undefined;
  seen.add(from);
  for (const next of mountedServers.get(from) ?? []) {
    const path = mountPath(next, to, seen);
    if (path) return [from, ...path];
  }
  return undefined;
}

const serverName = (server: object) =>
  (server as { serverInfo?: { name?: string } }).serverInfo?.name ?? (server as { name?: string }).name ?? 'a server';

/**
 * The other MCP servers a server takes tools from: upstreams (remote, over stdio or HTTP) and mounts
 * (in process). Each is one package of the registry, named after it; names and namespaces are unique.
 */
export class Composition {
  readonly #upstreams = new Map<string, DeferredUpstream>();
  readonly #mounts = new Map<string, MountHandle>();
  readonly #namespaces = new Set<string>();
  readonly #statusListeners = new Set<(status: UpstreamStatus) => void>();
  #closed = false;

  constructor(private readonly deps: CompositionDeps) {}

  /** Starts connecting an upstream (in the background: a slow or dead one blocks nothing). */
  addUpstream(config: UpstreamConfig): UpstreamHandle {
    const resolved = resolveUpstreamConfig(config);
    const { name, namespace } = resolved;
    if (this.#closed) throw new UpstreamError('INVALID_UPSTREAM', name, `Upstream "${name}": the server was stopped.`);
    if (this.#upstreams.has(name)) {
      throw new UpstreamError('INVALID_UPSTREAM', name, `Upstream "${name}" is already added: names are unique.`);
    }
    this.#claim(namespace, `Upstream "${name}"`);
    const upstream = new DeferredUpstream(resolved, {
      ...this.deps,
      onStatus: (status) => {
        for (const listener of [...this.#statusListeners]) listener(status);
      },
    });
    this.#upstreams.set(name, upstream);
    const close = upstream.close.bind(upstream);
    return Object.freeze({
      name,
      get status() {
        return upstream.status;
      },
      whenConnected: (options?: WhenConnectedOptions) => upstream.whenConnected(options),
      close: async () => {
        await close();
        if (this.#upstreams.get(name) === upstream) this.#upstreams.delete(name);
        this.#namespaces.delete(namespace);
      },
    });
  }

  /**
   * Mounts an in-process source (see `mountSource`).
   * @throws UpstreamError `INVALID_UPSTREAM` for a bad or taken namespace; `MOUNT_CYCLE` when the
   *   source is this server or mounts it (directly or through other mounts): mounting it would recurse.
   */
  mount(source: MountSource, options: MountOptions): MountHandle {
    const namespace = options?.namespace;
    assertNamespace(namespace, 'mount()');
    const { owner } = this.deps;
    const server = owner && typeof source === 'object' && source !== null && 'tools' in source ? source : undefined;
    const cycle = server && mountPath(server, owner!);
    if (cycle) {
      const chain = [owner!, ...cycle].map(serverName).join(' -> ');
      throw new UpstreamError(
        'MOUNT_CYCLE',
        namespace,
        `mount(): "${serverName(server!)}" ${cycle.length === 1 ? 'is this server' : 'mounts this server'} (${chain}); mounting it would repeat its tools without end.`,
      );
    }
    this.#claim(namespace, 'mount()');
    const handle = mountSource(this.deps.registry, this.deps.logger, source, namespace);
    this.#mounts.set(namespace, handle);
    if (server) {
      const mounted = mountedServers.get(owner!) ?? [];
      mountedServers.set(owner!, [...mounted, server]);
    }
    let live = true;
    return Object.freeze({
      namespace,
      tools: () => handle.tools(),
      unmount: () => {
        handle.unmount();
        const mounted = server && live ? mountedServers.get(owner!) : undefined;
        live = false;
        if (mounted?.includes(server!)) mounted.splice(mounted.indexOf(server!), 1);
        this.#mounts.delete(namespace);
        this.#namespaces.delete(namespace);
      },
    });
  }

  /** Every upstream's state, in the order added. */
  statuses(): readonly UpstreamStatus[] {
    return [...this.#upstreams.values()].map((upstream) => upstream.status);
  }

  /** Calls `listener` after each state change of any upstream; returns an unsubscribe function. */
  onStatus(listener: (status: UpstreamStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** Closes every upstream (their children stop) and ends every mount; run by `stop()`. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const mount of this.#mounts.values()) mount.unmount();
    await Promise.all([...this.#upstreams.values()].map((upstream) => upstream.close()));
  }

  #claim(namespace: string, what: string): void {
    if (this.#namespaces.has(namespace)) {
      throw new UpstreamError('INVALID_UPSTREAM', namespace, `${what}: the namespace "${namespace}" is already used.`);
    }
    this.#namespaces.add(namespace);
  }
}
