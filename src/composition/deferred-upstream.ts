import type { UpstreamStatus } from '../upstream-status.js';
import { describeUpstream, type ResolvedUpstreamConfig } from './upstream-config.js';
import type { WhenConnectedOptions } from './connect-waiters.js';
import type { Upstream, UpstreamDeps } from './upstream.js';

/**
 * An upstream added with `addUpstream()` whose connection code (`upstream.ts` and the client, catalog,
 * relay and subscription code it uses, ~40 KB) loads with `import()` when it is added, not when the
 * package root is imported: a server without upstreams never compiles it (bench W0). The real
 * {@link Upstream} is made once that code is loaded (a few ms later, the same turn as its first
 * connection attempt would have started); until then it shows the status of an upstream that has
 * not tried yet, and waiting or closing is done on the real one as soon as it exists, in call order.
 */
export class DeferredUpstream {
  readonly #config: ResolvedUpstreamConfig;
  readonly #loaded: Promise<Upstream>;
  #real?: Upstream;
  #closing = false;

  /** @throws nothing: a failed load is logged and rejects `whenConnected()`. */
  constructor(config: ResolvedUpstreamConfig, deps: UpstreamDeps) {
    this.#config = config;
    this.#loaded = import('./upstream.js').then(({ Upstream }) => {
      const real = new Upstream(config, deps);
      this.#real = real;
      if (!this.#closing) real.start();
      return real;
    });
    this.#loaded.catch((error: unknown) =>
      deps.logger.error({ err: error, upstream: config.name }, 'loading the upstream connection code failed'),
    );
  }

  /** The upstream's name. */
  get name(): string {
    return this.#config.name;
  }

  /** Its state now (see `Upstream.status`); before its code loaded, that of an upstream that has not tried yet. */
  get status(): UpstreamStatus {
    return this.#real?.status ?? untriedStatus(this.#config, this.#closing ? 'closed' : 'connecting');
  }

  /** See `Upstream.whenConnected`. */
  whenConnected(options?: WhenConnectedOptions): Promise<void> {
    return this.#real ? this.#real.whenConnected(options) : this.#loaded.then((real) => real.whenConnected(options));
  }

  /** See `Upstream.close`. Idempotent; before its code loaded, the real upstream is closed without connecting. */
  close(): Promise<void> {
    this.#closing = true;
    return this.#real
      ? this.#real.close()
      : this.#loaded.then(
          (real) => real.close(),
          () => {},
        );
  }
}

/** The status of an upstream that has not tried to connect yet (what `Upstream.status` shows right after it is made). */
export function untriedStatus(config: ResolvedUpstreamConfig, state: 'connecting' | 'closed'): UpstreamStatus {
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
    failures: 0,
  });
}
