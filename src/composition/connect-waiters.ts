import { UpstreamError } from '../errors.js';
import { assertKnownOptions } from '../known-options.js';
import { checkOptionsObject, checkValue, msRule } from '../option-values.js';

/** Options of `UpstreamHandle.whenConnected()`. */
export interface WhenConnectedOptions {
  /**
   * Longest wait, ms (default 60000, at most 2^31-1): after it the promise rejects with an
   * `UpstreamError` (`UPSTREAM_UNAVAILABLE`) naming the upstream, its state and its last error.
   * The upstream keeps retrying in the background either way. While the wait is pending it holds the
   * process open (at most this long), so a wait awaited at an app's top level always settles.
   */
  timeoutMs?: number;
}

/** The default bound of `whenConnected()`, ms. */
export const DEFAULT_WHEN_CONNECTED_MS = 60_000;

interface Waiter {
  resolve(): void;
  reject(error: UpstreamError): void;
  timer: NodeJS.Timeout;
}

/**
 * The pending `whenConnected()` promises of one upstream: each settles exactly once, when it
 * connects, when it fails for good, or when its own time runs out. Its timer holds the process open
 * until then: the upstream's own retry timer does not (between attempts, an upstream nobody waits on
 * does not keep a process alive), so an app awaiting `whenConnected()` at its top level with nothing else pending
 * would otherwise end with exit code 13 (an unsettled top-level await) instead of the rejection.
 * `failed()` (its `close()`, the server's `stop()`) clears every timer at once.
 */
export class ConnectWaiters {
  readonly #waiters = new Set<Waiter>();

  constructor(
    private readonly upstream: string,
    /** Describes where the upstream is now (state, failures, last error), for a timeout's message. */
    private readonly describe: () => string,
  ) {}

  /**
   * A promise for the next connection, bounded by `options.timeoutMs`.
   * @throws InvalidOptionsError (as a rejection) for options that are not an object, an unknown option or a
   *   `timeoutMs` that is not a positive number of ms.
   */
  wait(options: WhenConnectedOptions = {}): Promise<void> {
    try {
      checkOptionsObject('whenConnected()', options);
      assertKnownOptions('whenConnected() option', options, new Set(['timeoutMs']));
      checkValue('whenConnected() option', 'timeoutMs', options.timeoutMs, msRule(false));
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const limit = options.timeoutMs ?? DEFAULT_WHEN_CONNECTED_MS;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          const message = `Upstream "${this.upstream}" did not connect within ${limit} ms (${this.describe()}); it keeps retrying in the background.`;
          reject(new UpstreamError('UPSTREAM_UNAVAILABLE', this.upstream, message));
        }, limit),
      };
      this.#waiters.add(waiter);
    });
  }

  /** Resolves every waiter (the upstream connected). */
  connected(): void {
    for (const waiter of this.#take()) waiter.resolve();
  }

  /** Rejects every waiter with `UPSTREAM_UNAVAILABLE` saying `why` (it was closed, or can never connect here). */
  failed(why: string, cause?: unknown): void {
    const error = new UpstreamError('UPSTREAM_UNAVAILABLE', this.upstream, `Upstream "${this.upstream}" ${why}.`, {
      cause,
    });
    for (const waiter of this.#take()) waiter.reject(error);
  }

  #take(): Waiter[] {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const waiter of waiters) clearTimeout(waiter.timer);
    return waiters;
  }
}
