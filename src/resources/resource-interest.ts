import { normalizeUri } from './uri-normalization.js';

/** Told when a URI gains its first subscriber (`held` true) or loses its last one (`held` false). */
export type InterestListener = (uri: string, held: boolean) => void;

/**
 * How many subscriptions of this process's clients name each resource URI, counted across every
 * connection and era: a legacy view's `resources/subscribe` set and each 2026-07-28
 * `subscriptions/listen` stream's `resourceSubscriptions` hold a URI until they let it go
 * (unsubscribe, stream or connection closed). URIs are counted in their normal form
 * (`normalizeUri`); listeners get the URI as its first subscriber spelled it.
 *
 * It counts this process only: on replicas each process counts its own clients (and a source
 * that must be told, such as an upstream connection, belongs to one process too).
 */
export class ResourceInterest {
  readonly #held = new Map<string, { uri: string; count: number }>();
  readonly #listeners = new Set<InterestListener>();

  /**
   * Adds one subscriber of `uri`; listeners hear of it when it is the first.
   * @returns the release function (idempotent): listeners hear when the last one is released.
   */
  hold(uri: string): () => void {
    const key = normalizeUri(uri);
    const entry = this.#held.get(key);
    if (entry) entry.count += 1;
    else {
      this.#held.set(key, { uri, count: 1 });
      this.#tell(uri, true);
    }
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const current = this.#held.get(key);
      if (!current || --current.count > 0) return;
      this.#held.delete(key);
      this.#tell(current.uri, false);
    };
  }

  /** Whether some client subscribed to `uri` (compared in normal form). */
  has(uri: string): boolean {
    return this.#held.has(normalizeUri(uri));
  }

  /** Every URI with at least one subscriber, as its first subscriber spelled it. */
  uris(): string[] {
    return [...this.#held.values()].map((entry) => entry.uri);
  }

  /** Adds a listener; returns its remover. A listener that throws does not stop the others. */
  onChange(listener: InterestListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #tell(uri: string, held: boolean): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(uri, held);
      } catch {
        // a listener's own failure is its business (it logs it)
      }
    }
  }
}
