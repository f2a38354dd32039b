import type { Server } from '@modelcontextprotocol/server';
import { ToolCallAbortedError } from '../../errors.js';
import { InFlightCalls } from './in-flight-calls.js';

/**
 * Something that can tell connected clients about a change: a long-lived view (its
 * notifications go out on its connection, or on its `subscriptions/listen` streams on
 * stdio's modern era) or a modern-era HTTP handler's notifier.
 */
export interface ChangeSink {
  toolsChanged(): void;
  resourcesChanged(): void;
  promptsChanged(): void;
  resourceUpdated(uri: string): void;
}

/**
 * The set of live views and other change sinks. One registry change becomes exactly
 * one call on each sink; a sink that fails (closed connection) is reported and does
 * not stop the others.
 */
export class LiveViews {
  readonly #views = new Set<Server>();
  readonly #sinks = new Set<ChangeSink>();
  /** The tool calls running on every view, tracked or request-scoped. */
  readonly calls = new InFlightCalls();

  constructor(private readonly onError: (error: unknown) => void) {}

  /** Tracks a view until it closes; returns a function that stops tracking it. */
  add(view: Server): () => void {
    this.#views.add(view);
    const previous = view.onclose;
    view.onclose = () => {
      this.#views.delete(view);
      previous?.();
    };
    return () => this.#views.delete(view);
  }

  /** Adds a non-view sink (e.g. the modern HTTP handler's notifier); returns its remover. */
  addSink(sink: ChangeSink): () => void {
    this.#sinks.add(sink);
    return () => this.#sinks.delete(sink);
  }

  toolsChanged(): void {
    this.#fanOut(
      (view) => view.sendToolListChanged(),
      (sink) => sink.toolsChanged(),
    );
  }

  resourcesChanged(): void {
    this.#fanOut(
      (view) => view.sendResourceListChanged(),
      (sink) => sink.resourcesChanged(),
    );
  }

  promptsChanged(): void {
    this.#fanOut(
      (view) => view.sendPromptListChanged(),
      (sink) => sink.promptsChanged(),
    );
  }

  resourceUpdated(uri: string): void {
    this.#fanOut(
      (view) => view.sendResourceUpdated({ uri }),
      (sink) => sink.resourceUpdated(uri),
    );
  }

  /**
   * Aborts every tool call still running, on any view, with reason `shutdown` and waits
   * (bounded) until each was answered through its normal result path: a JSON-RPC error
   * saying the server is shutting down (used by `stop()`, before the transports close).
   */
  async abortInFlight(): Promise<void> {
    await this.calls.abortAll(
      () => new ToolCallAbortedError('shutdown', 'The server is shutting down; the call did not complete.'),
    );
  }

  /** Closes every view (used by `stop()`). */
  async closeAll(): Promise<void> {
    const views = [...this.#views];
    this.#views.clear();
    await Promise.allSettled(views.map((view) => view.close()));
  }

  #fanOut(toView: (view: Server) => Promise<void>, toSink: (sink: ChangeSink) => void): void {
    for (const view of this.#views) {
      if (!view.transport) continue; // not connected yet: it reads the new state on its first request
      toView(view).catch(this.onError);
    }
    for (const sink of this.#sinks) {
      try {
        toSink(sink);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
