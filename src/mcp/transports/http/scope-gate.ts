import type { RequestHandler } from 'express';
import type { ResourceServer } from '../../../auth/resource-server.js';
import { scopeRefusal, type RequiredScopesOf } from './checks.js';
import type { AuthedRequest } from './guards.js';
import { sendHttpRefusal } from './responses.js';

export type { RequiredScopesOf } from './checks.js';

/**
 * Step-up at the HTTP layer (MCP authorization, scope challenge handling): a request that names
 * an item whose `requiredScopes` the token lacks (a `tools/call` of such a tool, say) is answered
 * 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` before any view sees
 * it, on both eras, so the client can ask the authorization server for the missing scopes
 * (see {@link scopeRefusal}).
 */
export function scopeGate(
  resourceServer: ResourceServer,
  resource: () => string,
  requiredOf: RequiredScopesOf,
): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const refusal = scopeRefusal(resourceServer, resource(), req.body, (req as AuthedRequest).auth, requiredOf);
    if (!refusal) return next();
    sendHttpRefusal(res, refusal);
  };
}
