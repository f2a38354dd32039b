import type { IncomingMessage } from 'node:http';
import {
  bearerAuthChallengeResponse,
  OAuthError,
  validateHostHeader,
  validateOriginHeader,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { CorsOptions } from 'cors';
import type { RequestHandler } from 'express';
import { AuthenticationError } from '../../../errors.js';
import { lazyRequire } from '../../../lazy-module.js';
import type { Logger } from '../../../logger.js';
import type { AuthenticateHook } from './options.js';
import { HttpRpcError, sendRpcError } from './responses.js';

const loadCors = lazyRequire<typeof import('cors')>('cors');

/** Headers an MCP client sends (MCP Streamable HTTP), allowed on CORS requests. */
const MCP_REQUEST_HEADERS = [
  'Content-Type',
  'Accept',
  'Authorization',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Last-Event-ID',
];
/** Response headers a browser client must be able to read. */
const MCP_RESPONSE_HEADERS = ['Mcp-Session-Id', 'WWW-Authenticate'];

/** The Node request as it leaves the auth guard: `auth` is what `authenticate` returned (SDK convention). */
export type AuthedRequest = IncomingMessage & { auth?: AuthInfo };

function list(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : value.split(',').map((item) => item.trim());
}

/**
 * CORS middleware (the `cors` package) with the MCP headers merged into the app's
 * options: `Mcp-Session-Id` and `WWW-Authenticate` exposed; `Authorization`,
 * `Mcp-Protocol-Version`, `Mcp-Session-Id`, `Last-Event-ID` (and the other MCP request
 * headers) allowed; methods GET, POST, DELETE, OPTIONS. Answers preflights with 204.
 */
export function corsGuard(options: CorsOptions): RequestHandler {
  const allowed = options.allowedHeaders;
  return loadCors()({
    methods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    ...options,
    allowedHeaders: [...new Set([...list(allowed), ...MCP_REQUEST_HEADERS])],
    exposedHeaders: [...new Set([...list(options.exposedHeaders), ...MCP_RESPONSE_HEADERS])],
  });
}

/** The methods the MCP endpoint serves (MCP "Streamable HTTP": POST messages, GET a stream, DELETE a session). */
const ENDPOINT_METHODS = new Set(['GET', 'POST', 'DELETE']);

/**
 * 405 Method Not Allowed (RFC 9110 section 15.5.6, with the `Allow` header it requires) and a
 * JSON-RPC error body for any other method on the MCP endpoint (PUT, PATCH, HEAD, OPTIONS
 * without CORS), instead of letting the transport read it as a malformed MCP request (400).
 * Runs after the CORS guard, which answers preflights itself; with CORS on, `Allow` lists
 * OPTIONS too.
 */
export function methodGuard(cors: boolean): RequestHandler {
  const allow = cors ? 'GET, POST, DELETE, OPTIONS' : 'GET, POST, DELETE';
  return (req, res, next) => {
    if (ENDPOINT_METHODS.has(req.method)) return next();
    sendRpcError(res, 405, HttpRpcError.SERVER_ERROR, `Method not allowed: ${req.method} (use POST, GET or DELETE).`, {
      Allow: allow,
    });
  };
}

/**
 * DNS-rebinding protection (MCP Streamable HTTP, security warning): 403 with a
 * JSON-RPC error when the `Host` hostname is not in `allowedHosts` or a present
 * `Origin` hostname is not in `allowedOrigins` (ports ignored; an absent list skips
 * that check).
 */
export function hostOriginGuard(allowedHosts?: string[], allowedOrigins?: string[]): RequestHandler {
  return (req, res, next) => {
    if (allowedHosts) {
      const host = validateHostHeader(req.headers.host, allowedHosts);
      if (!host.ok) return sendRpcError(res, 403, HttpRpcError.SERVER_ERROR, `Forbidden: ${host.message}`);
    }
    if (allowedOrigins) {
      const origin = validateOriginHeader(req.headers.origin, allowedOrigins);
      if (!origin.ok) return sendRpcError(res, 403, HttpRpcError.SERVER_ERROR, `Forbidden: ${origin.message}`);
    }
    next();
  };
}

/** Turns what the hook threw into the answer: status, challenge and a message safe to show. */
function refusalOf(error: unknown, resourceMetadataUrl: string | undefined): AuthenticationError {
  if (error instanceof AuthenticationError) return error;
  if (error instanceof OAuthError && (error.code === 'invalid_token' || error.code === 'insufficient_scope')) {
    // The SDK's bearer helpers (verifyBearerToken) throw these; answer as its own gate does (RFC 6750 section 3).
    const challenge = bearerAuthChallengeResponse(error, { resourceMetadataUrl }).headers.get('www-authenticate');
    const status = error.code === 'insufficient_scope' ? 403 : 401;
    return new AuthenticationError(`Unauthorized: ${error.message}`, { status, challenge: challenge ?? undefined });
  }
  return new AuthenticationError('Unauthorized: invalid credentials');
}

/**
 * Runs the app's `authenticate` hook on every request but CORS preflights. On
 * success the auth info is stored as `req.auth` (the SDK's convention) for both eras;
 * `undefined`/`null` or a throw answers 401 with `WWW-Authenticate`: an
 * `AuthenticationError` chooses status, challenge and message; the SDK's `OAuthError`
 * (`invalid_token` 401, `insufficient_scope` 403) gets the SDK's bearer challenge; the
 * messages of other errors are not sent to the client.
 */
export function authGuard(
  authenticate: AuthenticateHook,
  defaultChallenge: string,
  resourceMetadataUrl: string | undefined,
  logger: Logger,
): RequestHandler {
  return async (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    let refusal: AuthenticationError;
    try {
      const auth = await authenticate(req);
      if (auth) {
        (req as AuthedRequest).auth = auth;
        return next();
      }
      refusal = new AuthenticationError('Unauthorized: authentication required');
    } catch (error) {
      logger.debug({ err: error }, 'authenticate() refused a request');
      refusal = refusalOf(error, resourceMetadataUrl);
    }
    sendRpcError(res, refusal.status, HttpRpcError.SERVER_ERROR, refusal.message, {
      'WWW-Authenticate': refusal.challenge ?? defaultChallenge,
    });
  };
}
