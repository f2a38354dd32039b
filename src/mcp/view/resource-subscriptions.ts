import type { AuthInfo } from '@modelcontextprotocol/server';
import { normalizeUri } from '../../resources/uri-normalization.js';
import { ResourceNotFoundError } from '../../errors.js';
import { admits } from '../../registry/access-rule.js';
import type { DocumentStoreView } from '../../documents/document-store.js';
import type { ResourceRegistryView } from '../../resources/resource-registry.js';
import type { ResourceInterest } from '../../resources/resource-interest.js';
import type { HandlerRoutes } from '../pipeline/request-pipeline.js';
import { toProtocolError } from './handler-errors.js';

/** Where a URI's access rule is looked up: the fixed resources and templates, and the documents. */
export interface ReadAccessSources {
  readonly resources: Pick<ResourceRegistryView, 'get' | 'match'>;
  readonly documents: Pick<DocumentStoreView, 'get'>;
}

/**
 * Whether `auth` may read `uri` by the rule `resources/read` applies, in its lookup order: the
 * fixed resource with this URI (its `requiredScopes` / `canAccess`), else a document (no rule),
 * else the first matching template's rule. A URI nothing serves (yet) is readable: it has no rule.
 * Used to keep `notifications/resources/updated` from callers that could not read the resource.
 */
export function mayRead(sources: ReadAccessSources, uri: string, auth: AuthInfo | undefined): boolean {
  const resource = sources.resources.get(uri);
  if (resource) return admits(resource.access, auth);
  if (sources.documents.get(uri)) return true;
  const matched = sources.resources.match(uri);
  return matched === undefined || admits(matched.template.access, auth);
}

/**
 * The resource URIs one view's client subscribed to, so that a resource update reaches only
 * subscribers (MCP "Resources / Subscriptions"), each with the caller's auth info of its
 * `resources/subscribe`, so that an update is checked against the resource's access rule when it
 * is sent (a rule registered after the subscription applies too). URIs are compared in their
 * normal form (RFC 3986 section 6.2.2, see `normalizeUri`).
 *
 * - Legacy era (2025-11-25 and earlier): the client calls `resources/subscribe` /
 *   `resources/unsubscribe` on this view; the view sends `notifications/resources/updated` only
 *   for URIs in this set whose rule admits the subscriber (see `createView`).
 * - Modern era (2026-07-28): there is no `resources/subscribe`; the client lists URIs in its
 *   `subscriptions/listen` filter and the SDK's listen router drops updates for other URIs
 *   (its acknowledgement leaves out refused URIs: `sdk-internals/listen-admission.ts`).
 *
 * With `interest`, each subscribed URI is held there until it is unsubscribed or the view closes
 * ({@link ResourceSubscriptions.clear}), so sources that must be told (an upstream) know it is wanted.
 */
export class ResourceSubscriptions {
  readonly #uris = new Map<string, AuthInfo | undefined>();
  readonly #releases = new Map<string, () => void>();

  constructor(private readonly interest?: ResourceInterest) {}

  /** Records a subscription of this view's client made with `auth` (idempotent; the latest auth wins). */
  subscribe(uri: string, auth?: AuthInfo): void {
    const key = normalizeUri(uri);
    this.#uris.set(key, auth);
    if (this.interest && !this.#releases.has(key)) this.#releases.set(key, this.interest.hold(uri));
  }

  /** Drops a subscription (a no-op when there was none). */
  unsubscribe(uri: string): void {
    const key = normalizeUri(uri);
    this.#uris.delete(key);
    this.#releases.get(key)?.();
    this.#releases.delete(key);
  }

  /** Drops every subscription (the view closed). */
  clear(): void {
    this.#uris.clear();
    for (const release of this.#releases.values()) release();
    this.#releases.clear();
  }

  /** Whether the client subscribed to `uri` (compared in normal form). */
  has(uri: string): boolean {
    return this.#uris.has(normalizeUri(uri));
  }

  /** The auth info the subscription to `uri` was made with (undefined without authentication or subscription). */
  authOf(uri: string): AuthInfo | undefined {
    return this.#uris.get(normalizeUri(uri));
  }

  /** URIs this view's client subscribed to through `resources/subscribe`, in normal form. */
  uris(): readonly string[] {
    return [...this.#uris.keys()];
  }
}

/**
 * Installs `resources/subscribe` and `resources/unsubscribe` (legacy era) on a view. Any URI
 * may be subscribed to, including one that does not exist yet or that a template serves, except
 * one whose resource or template the caller's access rule (`canAccess` / `requiredScopes`)
 * refuses ({@link mayRead}): that is not found, as on `resources/read`, so a client learns nothing of it.
 * @throws ResourceNotFoundError (as a JSON-RPC error) for such a URI.
 */
export function installSubscriptionHandlers(
  routes: HandlerRoutes,
  subscriptions: ResourceSubscriptions,
  sources: ReadAccessSources,
): void {
  routes.setRequestHandler('resources/subscribe', (request, ctx) => {
    const { uri } = request.params;
    const auth = ctx.http?.authInfo;
    if (!mayRead(sources, uri, auth)) {
      throw toProtocolError(new ResourceNotFoundError(uri), 'resources/subscribe');
    }
    subscriptions.subscribe(uri, auth);
    return {};
  });
  routes.setRequestHandler('resources/unsubscribe', (request) => {
    subscriptions.unsubscribe(request.params.uri);
    return {};
  });
}
