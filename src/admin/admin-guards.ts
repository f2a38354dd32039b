import type { IncomingMessage } from 'node:http';
import { validateHostHeader } from '@modelcontextprotocol/server';
import type { Request, RequestHandler } from 'express';
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
 * `allowRemote`, then the DNS-rebinding checks: the `Host` hostname (the SDK's validator) and a
 * present `Origin` compared by scheme, host and port ({@link originAllowed}).
 */
export function networkGuard(options: ResolvedAdminOptions): RequestHandler {
  return (req, res, next) => {
    if (!options.allowRemote && !isLoopbackAddress(req.socket.remoteAddress)) {
      return sendAdminError(
        res,
        403,
        'FORBIDDEN_REMOTE',
        "The admin API answers clients on the server's own machine only (127.0.0.1, ::1): open the settings page " +
          'there, or through an SSH tunnel (ssh -L). An app mounting adminRouter can set allowRemote.',
      );
    }
    const host = validateHostHeader(req.headers.host, options.allowedHosts);
    if (!host.ok) return sendAdminError(res, 403, 'FORBIDDEN_HOST', `Forbidden: ${host.message}`);
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(req, origin, options.allowedOrigins)) {
      return sendAdminError(
        res,
        403,
        'FORBIDDEN_ORIGIN',
        `Forbidden: the Origin ${origin} is not this page's origin (${req.protocol}://${req.headers.host}) nor in allowedOrigins.`,
      );
    }
    next();
  };
}

/** `scheme://host:port` with the port always spelled out (80/443 by default), or undefined for junk. */
function originKey(scheme: string, host: string): string | undefined {
  try {
    const url = new URL(`${scheme}://${host}`);
    const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
    return `${url.protocol}//${url.hostname}:${port}`;
  } catch {
    return undefined;
  }
}

/**
 * The browser's `Origin` must name scheme, host and port exactly (RFC 6454): the page's own origin
 * (the request's scheme and `Host`), an `allowedOrigins` entry given as a full origin, or an entry
 * given as a bare hostname on the request's own scheme and port. A page on another port of the same
 * host (`http://127.0.0.1:9999`) is another origin and is refused.
 */
function originAllowed(req: Request, origin: string, allowed: readonly string[]): boolean {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]+)$/i.exec(origin);
  const given = match ? originKey(match[1]!, match[2]!) : undefined;
  const own = originKey(req.protocol, req.headers.host ?? '');
  if (!given || !own) return false;
  if (given === own) return true;
  const ownPort = own.slice(own.lastIndexOf(':') + 1);
  return allowed.some((entry) =>
    entry.includes('://')
      ? originKey(entry.slice(0, entry.indexOf('://')), entry.slice(entry.indexOf('://') + 3)) === given
      : originKey(req.protocol, `${entry}:${ownPort}`) === given,
  );
}

const digest = (value: string) => nodeCrypto().createHash('sha256').update(value).digest();

/**
 * Authentication of the API routes: the app's `authenticate`, else `Authorization: Bearer
 * <token>` compared in constant time; when the server is an OAuth resource server, an access
 * token with its admin scope passes too (`oauth`). Credentials come from the header only (never
 * a cookie or the query string), so a cross-site page cannot make an authenticated request (CSRF).
 */
export function authGuard(
  options: ResolvedAdminOptions,
  oauth?: (request: IncomingMessage) => Promise<boolean>,
): RequestHandler {
  const expected = options.token === undefined ? undefined : digest(options.token);
  return async (req, res, next) => {
    let allowed = false;
    try {
      if (options.authenticate) allowed = (await options.authenticate(req)) === true;
      else {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
        allowed = match !== null && expected !== undefined && nodeCrypto().timingSafeEqual(digest(match[1]!), expected);
      }
      if (!allowed && oauth && req.headers.authorization) allowed = await oauth(req);
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
