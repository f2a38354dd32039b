import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { CorsOptions } from 'cors';
import type { RequestHandler } from 'express';
import { authenticateWith, hostOriginRefusal, methodRefusal, type AuthOutcome } from './checks.js';
import { lazyRequire } from '../../../lazy-module.js';
import type { Logger } from '../../../logger.js';
import type { AuthenticateHook } from './options.js';
import { sendHttpRefusal } from './responses.js';

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

/**
 * 405 Method Not Allowed and a JSON-RPC error body for any other method than GET, POST and DELETE on
 * the MCP endpoint (see {@link methodRefusal}), instead of letting the transport read it as a
 * malformed MCP request (400). Runs after the CORS guard, which answers preflights itself.
 */
export function methodGuard(cors: boolean): RequestHandler {
  return (req, res, next) => {
    const refusal = methodRefusal(req.method, cors);
    if (!refusal) return next();
    sendHttpRefusal(res, refusal);
  };
}

/** DNS-rebinding protection: 403 with a JSON-RPC error (see {@link hostOriginRefusal}). */
export function hostOriginGuard(allowedHosts?: string[], allowedOrigins?: string[]): RequestHandler {
  return (req, res, next) => {
    const refusal = hostOriginRefusal(req.headers.host, req.headers.origin, allowedHosts, allowedOrigins);
    if (!refusal) return next();
    sendHttpRefusal(res, refusal);
  };
}

/**
 * Runs the app's `authenticate` hook on every request but CORS preflights (see
 * {@link authenticateWith}). On success the auth info is stored as `req.auth` (the SDK's
 * convention) for both eras; otherwise the refusal (401/403 with `WWW-Authenticate`) is sent.
 */
export function authGuard(
  authenticate: AuthenticateHook,
  defaultChallenge: string,
  resourceMetadataUrl: string | undefined,
  logger: Logger,
): RequestHandler {
  const settings = { defaultChallenge, resourceMetadataUrl, logger };
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    const decide = (outcome: AuthOutcome) => {
      if ('refusal' in outcome) return sendHttpRefusal(res, outcome.refusal);
      (req as AuthedRequest).auth = outcome.auth;
      next();
    };
    const outcome = authenticateWith(() => authenticate(req), settings);
    // A remembered token is decided now; express 5 routes a rejected promise to its error handler.
    return outcome instanceof Promise ? outcome.then(decide) : decide(outcome);
  };
}
