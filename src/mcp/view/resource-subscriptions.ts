import type { ResourceUpdatedNotification } from '@modelcontextprotocol/server';
import { normalizeUri } from '../../resources/uri-normalization.js';
import { ViewServer } from './view-server.js';

/** Protocol revisions from this one on are the modern (2026-07-28) era; they compare as dates. */
const FIRST_MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * A view that remembers which resource URIs its client subscribed to, so that a resource
 * update reaches only subscribers (MCP "Resources / Subscriptions"). URIs are compared in
 * their normal form (RFC 3986 section 6.2.2, see `normalizeUri`).
 *
 * - Legacy era (2025-11-25 and earlier): the client calls `resources/subscribe` /
 *   `resources/unsubscribe` on this view; `sendResourceUpdated({ uri })` sends
 *   `notifications/resources/updated` only when this view's client subscribed to `uri`.
 * - Modern era (2026-07-28): there is no `resources/subscribe`; the client lists URIs in its
 *   `subscriptions/listen` filter (`resourceSubscriptions`) and the SDK's listen router drops
 *   updates for other URIs, so every update is handed to the router.
 */
export class SubscribingServer extends ViewServer {
  readonly #subscriptions = new Set<string>();

  /** Records a subscription of this view's client (idempotent). */
  subscribe(uri: string): void {
    this.#subscriptions.add(normalizeUri(uri));
  }

  /** Drops a subscription (a no-op when there was none). */
  unsubscribe(uri: string): void {
    this.#subscriptions.delete(normalizeUri(uri));
  }

  /** URIs this view's client subscribed to through `resources/subscribe`, in normal form (see `normalizeUri`). */
  subscribedUris(): readonly string[] {
    return [...this.#subscriptions];
  }

  /** Sends `notifications/resources/updated` if this view's client asked for it (see the class doc). */
  override async sendResourceUpdated(params: ResourceUpdatedNotification['params']): Promise<void> {
    if (!this.#servesModernEra() && !this.#subscriptions.has(normalizeUri(params.uri))) return;
    return super.sendResourceUpdated(params);
  }

  #servesModernEra(): boolean {
    const version = this.getNegotiatedProtocolVersion();
    return version !== undefined && version >= FIRST_MODERN_PROTOCOL_VERSION;
  }
}

/**
 * Installs `resources/subscribe` and `resources/unsubscribe` (legacy era) on a view. Any URI
 * may be subscribed to, including one that does not exist yet or that a template serves.
 */
export function installSubscriptionHandlers(server: SubscribingServer): void {
  server.setRequestHandler('resources/subscribe', (request) => {
    server.subscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    server.unsubscribe(request.params.uri);
    return {};
  });
}
