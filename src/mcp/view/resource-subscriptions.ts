import { normalizeUri } from '../../resources/uri-normalization.js';
import { ResourceNotFoundError } from '../../errors.js';
import { admits } from '../../registry/access-rule.js';
import type { ResourceRegistryView } from '../../resources/resource-registry.js';
import type { HandlerRoutes } from '../pipeline/request-pipeline.js';
import { toProtocolError } from './handler-errors.js';

/**
 * The resource URIs one view's client subscribed to, so that a resource update reaches only
 * subscribers (MCP "Resources / Subscriptions"). URIs are compared in their normal form
 * (RFC 3986 section 6.2.2, see `normalizeUri`).
 *
 * - Legacy era (2025-11-25 and earlier): the client calls `resources/subscribe` /
 *   `resources/unsubscribe` on this view; the view sends `notifications/resources/updated` only
 *   for URIs in this set (its server is built with `wantsResourceUpdate: (uri) => set.has(uri)`).
 * - Modern era (2026-07-28): there is no `resources/subscribe`; the client lists URIs in its
 *   `subscriptions/listen` filter and the SDK's listen router drops updates for other URIs.
 */
export class ResourceSubscriptions {
  readonly #uris = new Set<string>();

  /** Records a subscription of this view's client (idempotent). */
  subscribe(uri: string): void {
    this.#uris.add(normalizeUri(uri));
  }

  /** Drops a subscription (a no-op when there was none). */
  unsubscribe(uri: string): void {
    this.#uris.delete(normalizeUri(uri));
  }

  /** Whether the client subscribed to `uri` (compared in normal form). */
  has(uri: string): boolean {
    return this.#uris.has(normalizeUri(uri));
  }

  /** URIs this view's client subscribed to through `resources/subscribe`, in normal form. */
  uris(): readonly string[] {
    return [...this.#uris];
  }
}

/** Where a subscription's URI is looked up for its access rule (the resources and templates). */
export type SubscriptionAccess = Pick<ResourceRegistryView, 'get' | 'match'>;

/**
 * Installs `resources/subscribe` and `resources/unsubscribe` (legacy era) on a view. Any URI
 * may be subscribed to, including one that does not exist yet or that a template serves, except
 * one whose resource or template the caller's access rule (`canAccess` / `requiredScopes`)
 * refuses: that is not found, as on `resources/read`, so a client learns nothing of it.
 * @throws ResourceNotFoundError (as a JSON-RPC error) for such a URI.
 */
export function installSubscriptionHandlers(
  routes: HandlerRoutes,
  subscriptions: ResourceSubscriptions,
  resources: SubscriptionAccess,
): void {
  routes.setRequestHandler('resources/subscribe', (request, ctx) => {
    const { uri } = request.params;
    const entry = resources.get(uri) ?? resources.match(uri)?.template;
    if (entry && !admits(entry.access, ctx.http?.authInfo)) {
      throw toProtocolError(new ResourceNotFoundError(uri), 'resources/subscribe');
    }
    subscriptions.subscribe(uri);
    return {};
  });
  routes.setRequestHandler('resources/unsubscribe', (request) => {
    subscriptions.unsubscribe(request.params.uri);
    return {};
  });
}
