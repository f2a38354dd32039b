import { UpstreamError } from '../errors.js';
import { backgroundLoadOnce } from '../lazy-module.js';
import type { UpstreamStatus } from '../upstream-status.js';
import { describeUpstream, type ResolvedUpstreamConfig } from './upstream-config.js';
import type { WhenConnectedOptions } from './connect-waiters.js';
import type { Upstream, UpstreamDeps } from './upstream.js';

/**
 * An upstream added with `addUpstream()` whose connection code (`upstream.ts` and the client, catalog,
 * relay and subscription code it uses, ~40 KB) loads with `import()` when it is added, not when the
 * package root is imported: a server without upstreams never compiles it (bench W0). It loads once the
 * event loop has polled for I/O ({@link backgroundLoadOnce}), so that connecting (the client SDK loaded, a
 * process spawned) never delays the answer to a client's first message already waiting on stdin. The
 * real {@link Upstream} is made once that code is loaded (a few ms later); until then it shows the
 * status of an upstream that has not tried yet, and waiting or closing is done on the real one as soon
 * as it exists, in call order.
 */
export class DeferredUpstream {
  readonly #config: ResolvedUpstreamConfig;
  readonly #load: () => Promise<Upstream>;
  #real?: Upstream;
  #closing = false;
  /** Failed loads of the connection code (a broken install, or `dist/` replaced under a running server). */
  #failures = 0;
  #lastError?: string;

  /** @throws nothing: a failed load is logged, shown in `status` and rejects `whenConnected()`. */
  constructor(config: ResolvedUpstreamConfig, deps: UpstreamDeps) {
    this.#config = config;
    this.#load = backgroundLoadOnce(() =>
      import('./upstream.js').then(
        ({ Upstream }) => {
          const real = new Upstream(config, deps);
          this.#real = real;
          if (!this.#closing) real.start();
          return real;
        },
        (error: unknown) => {
          this.#failures += 1;
          this.#lastError = `its connection code could not be loaded: ${(error as Error)?.message ?? String(error)}`;
          deps.logger.error({ err: error, upstream: config.name }, 'loading the upstream connection code failed');
          throw new UpstreamError(
            'UPSTREAM_UNAVAILABLE',
            config.name,
            `Upstream "${config.name}" cannot connect: ${this.#lastError} (reinstall mcp-toolkit; the next whenConnected() tries again).`,
            { cause: error },
          );
        },
      ),
    );
    this.#load().catch(() => {});
  }

  /** The upstream's name. */
  get name(): string {
    return this.#config.name;
  }

  /** Its state now (see `Upstream.status`); before its code loaded, that of an upstream that has not connected yet. */
  get status(): UpstreamStatus {
    if (this.#real) return this.#real.status;
    const state = this.#closing ? 'closed' : this.#failures > 0 ? 'retrying' : 'connecting';
    return untriedStatus(this.#config, state, this.#failures, this.#lastError);
  }

  /** See `Upstream.whenConnected`; rejects with `UpstreamError` (`UPSTREAM_UNAVAILABLE`) when its code cannot be loaded. */
  whenConnected(options?: WhenConnectedOptions): Promise<void> {
    return this.#real ? this.#real.whenConnected(options) : this.#load().then((real) => real.whenConnected(options));
  }

  /** See `Upstream.close`. Idempotent; before its code loaded, the real upstream is closed without connecting. */
  close(): Promise<void> {
    this.#closing = true;
    if (this.#real) return this.#real.close();
    return this.#load().then(
      (real) => real.close(),
      () => {},
    );
  }
}

/** The status of an upstream that has not tried to connect yet (what `Upstream.status` shows right after it is made). */
export function untriedStatus(
  config: ResolvedUpstreamConfig,
  state: 'connecting' | 'retrying' | 'closed',
  failures = 0,
  lastError?: string,
): UpstreamStatus {
  return Object.freeze({
    name: config.name,
    namespace: config.namespace,
    target: describeUpstream(config),
    state,
    tools: 0,
    knownTools: Object.freeze([]),
    nameConflicts: Object.freeze([]),
    prompts: 0,
    resources: 0,
    resourceTemplates: 0,
    failures,
    ...(lastError !== undefined && { lastError }),
  });
}
