import type { Logger } from '../logger.js';
import type { ResourceInterest } from '../resources/resource-interest.js';
import { normalizeUri } from '../resources/uri-normalization.js';

type Client = import('@modelcontextprotocol/client').Client;

/** What an upstream's resource subscriptions need from their owner. */
export interface UpstreamSubscriptionDeps {
  /** The URIs this process's clients subscribed to (legacy `resources/subscribe`, 2026-07-28 listen streams). */
  readonly interest: ResourceInterest;
  /** Whether `uri` is served here by this upstream (see `CatalogMirror.serves`). */
  serves(uri: string): boolean;
  /** Tells this process's subscribers of `uri` that it changed (never other replicas: each has its own upstream link). */
  resourceUpdated(uri: string): void;
  readonly logger: Logger;
}

/** One subscription held at the upstream: how to end it. */
type Held = { uri: string; end(): Promise<unknown> };

/**
 * Subscribes at an upstream to its resources our clients subscribed to (MCP "Resources /
 * Subscriptions"), once per URI however many of our sessions want it, and passes its
 * `notifications/resources/updated` to them. Only when the upstream declares
 * `resources.subscribe`. On the handshake era a subscription is `resources/subscribe` /
 * `resources/unsubscribe`; on 2026-07-28 it is a `subscriptions/listen` stream whose filter names
 * that URI (closed to unsubscribe). A subscription is made when the first of our clients wants the
 * URI and the upstream serves it (also when it starts serving it later, and again after a
 * reconnection) and ended when the last one leaves or the upstream no longer serves it.
 * The work is serialized: each change reconciles what is held with what is wanted.
 */
export class UpstreamSubscriptions {
  /** Held at the current connection, by normal-form URI. */
  readonly #held = new Map<string, Held>();
  #client?: Client;
  #queue: Promise<void> = Promise.resolve();
  readonly #stopListening: () => void;

  constructor(private readonly deps: UpstreamSubscriptionDeps) {
    this.#stopListening = deps.interest.onChange(() => this.reconcile());
  }

  /** A connection is ready: its updates are relayed, and what our clients want is subscribed (when it can be). */
  connected(client: Client): void {
    this.#held.clear(); // what was held belonged to the previous connection
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      if (client !== this.#client) return;
      const { uri } = notification.params;
      if (this.deps.interest.has(uri)) this.deps.resourceUpdated(uri);
    });
    this.#client = client.getServerCapabilities()?.resources?.subscribe ? client : undefined;
    this.reconcile();
  }

  /** The connection is gone (its subscriptions with it). */
  disconnected(): void {
    this.#client = undefined;
    this.#held.clear();
  }

  /** Ends the subscriptions for good (the upstream is closed). */
  close(): void {
    this.#stopListening();
    this.disconnected();
  }

  /** Subscribes what is wanted and served but not held, unsubscribes what is held but no longer wanted or served. */
  reconcile(): void {
    this.#queue = this.#queue.then(() => this.#reconcileNow());
  }

  async #reconcileNow(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    const wanted = new Map<string, string>();
    for (const uri of this.deps.interest.uris()) if (this.deps.serves(uri)) wanted.set(normalizeUri(uri), uri);
    for (const [key, held] of [...this.#held]) {
      if (wanted.has(key)) continue;
      this.#held.delete(key);
      await held.end().then(
        () => this.deps.logger.debug({ uri: held.uri }, 'unsubscribed from an upstream resource'),
        (error: unknown) => this.#failed('unsubscribing', held.uri, error),
      );
    }
    for (const [key, uri] of wanted) {
      if (this.#held.has(key) || client !== this.#client) continue;
      try {
        this.#held.set(key, await this.#subscribe(client, uri));
        this.deps.logger.debug({ uri }, 'subscribed to an upstream resource');
      } catch (error) {
        this.#failed('subscribing', uri, error);
      }
      if (client !== this.#client) this.#held.clear();
    }
  }

  async #subscribe(client: Client, uri: string): Promise<Held> {
    if (client.getProtocolEra() === 'modern') {
      const subscription = await client.listen({ resourceSubscriptions: [uri] });
      return { uri, end: () => subscription.close() };
    }
    await client.subscribeResource({ uri });
    return { uri, end: () => client.unsubscribeResource({ uri }) };
  }

  #failed(what: string, uri: string, error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.deps.logger.warn({ uri, reason }, `${what} an upstream resource failed`);
  }
}
