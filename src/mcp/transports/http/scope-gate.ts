import type { AuthInfo } from '@modelcontextprotocol/server';
import type { RequestHandler } from 'express';
import { missingScopes } from '../../../auth/principal.js';
import type { ResourceServer } from '../../../auth/resource-server.js';
import type { AuthedRequest } from './guards.js';
import { HttpRpcError, sendRpcError } from './responses.js';
import { isPlainObject } from '../../wire/plain-object.js';

/** The scopes one request needs, by method and the name it targets (undefined: none beyond the endpoint's). */
export type RequiredScopesOf = (method: string, params: Record<string, unknown>) => readonly string[] | undefined;

function scopesMissing(body: unknown, auth: AuthInfo | undefined, requiredOf: RequiredScopesOf): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const missing = new Set<string>();
  for (const message of messages) {
    if (!isPlainObject(message) || typeof message.method !== 'string') continue;
    const params = isPlainObject(message.params) ? message.params : {};
    for (const scope of missingScopes(requiredOf(message.method, params), auth)) missing.add(scope);
  }
  return [...missing];
}

/**
 * Step-up at the HTTP layer (MCP authorization, scope challenge handling): a request that names
 * an item whose `requiredScopes` the token lacks (a `tools/call` of such a tool, say) is answered
 * 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"` before any view sees
 * it, on both eras, so the client can ask the authorization server for the missing scopes.
 */
export function scopeGate(
  resourceServer: ResourceServer,
  resource: () => string,
  requiredOf: RequiredScopesOf,
): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const auth = (req as AuthedRequest).auth;
    const missing = scopesMissing(req.body, auth, requiredOf);
    if (missing.length === 0) return next();
    const refusal = resourceServer.insufficientScope(resource(), missing, auth);
    sendRpcError(res, 403, HttpRpcError.SERVER_ERROR, refusal.message, { 'WWW-Authenticate': refusal.challenge! });
  };
}
