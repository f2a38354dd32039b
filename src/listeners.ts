/**
 * A set of change listeners: `add` returns the unsubscribe function, `emit` calls every
 * listener in subscription order (a listener added or removed during `emit` does not change
 * that round).
 */
export class Listeners<Change> {
  readonly #listeners = new Set<(change: Change) => void>();

  add(listener: (change: Change) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(change: Change): void {
    for (const listener of [...this.#listeners]) listener(change);
  }
}
