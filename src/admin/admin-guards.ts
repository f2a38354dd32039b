import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { RequestHandler } from 'express';
import type { ResolvedAdminOptions } from './admin-options.js';
import { sendAdminError } from './admin-errors.js';
import { nodeCrypto } from '../lazy-module.js';

const CHALLENGE = 'Bearer realm="mcp-toolkit admin"';

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

/**
 * The network-level checks, on every route (page included): loopback peers only unless
 * `allowRemote`, then the MCP endpoint's DNS-rebinding checks (the SDK's Host and Origin
 * validators) with the admin lists.
 */
export function networkGuard(options: ResolvedAdminOptions): RequestHandler {
  return (req, res, next) => {
    if (!options.allowRemote && !isLoopbackAddress(req.socket.remoteAddress)) {
      return sendAdminError(
        res,
        403,
        'FORBIDDEN_REMOTE',
        'The admin API answers loopback clients only (set allowRemote to change that).',
      );
    }
    const host = validateHostHeader(req.headers.host, options.allowedHosts);
    if (!host.ok) return sendAdminError(res, 403, 'FORBIDDEN_HOST', `Forbidden: ${host.message}`);
    const origin = validateOriginHeader(req.headers.origin, options.allowedOrigins);
    if (!origin.ok) return sendAdminError(res, 403, 'FORBIDDEN_ORIGIN', `Forbidden: ${origin.message}`);
    next();
  };
}

const digest = (value: string) => nodeCrypto().createHash('sha256').update(value).digest();

/**
 * Authentication of the API routes: the app's `authenticate`, else `Authorization: Bearer
 * <token>` compared in constant time. Credentials come from the header only (never a cookie
 * or the query string), so a cross-site page cannot make an authenticated request (CSRF).
 */
export function authGuard(options: ResolvedAdminOptions): RequestHandler {
  const expected = options.token === undefined ? undefined : digest(options.token);
  return async (req, res, next) => {
    let allowed = false;
    try {
      if (options.authenticate) allowed = (await options.authenticate(req)) === true;
      else {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
        allowed = match !== null && expected !== undefined && nodeCrypto().timingSafeEqual(digest(match[1]!), expected);
      }
    } catch {
      allowed = false;
    }
    if (allowed) return next();
    const message = req.headers.authorization
      ? 'The admin token is wrong. Open the settings URL the server printed (it ends in #token=...) again.'
      : 'The admin API needs a token: send "Authorization: Bearer <token>" (the settings URL printed by the server carries it as #token=...).';
    sendAdminError(res, 401, 'UNAUTHENTICATED', message, { 'WWW-Authenticate': CHALLENGE });
  };
}
