import {
  bearerAuthChallengeResponse,
  isJsonContentType,
  OAuthError,
  validateHostHeader,
  validateOriginHeader,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import { missingScopes } from '../../../auth/principal.js';
import type { ResourceServer } from '../../../auth/resource-server.js';
import { AuthenticationError } from '../../../errors.js';
import type { Logger } from '../../../logger.js';
import { checkJsonRpcMessage, type RefusalResponse } from '../../wire/json-rpc-shape.js';
import { isPlainObject } from '../../wire/plain-object.js';
import { HttpRpcError } from './responses.js';

// The endpoint's checks as plain decisions over header values and parsed bodies, shared by the express
// endpoint (HttpMcpServer) and the web-standard fetch handler (mcp-toolkit/fetch). Runtime-neutral: no Node
// or express values are imported here.

/** Why a request is refused before any view sees it: the HTTP status, JSON-RPC error and extra headers. */
export interface HttpRefusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

/** The methods the MCP endpoint serves (MCP "Streamable HTTP": POST messages, GET a stream, DELETE a session). */
const ENDPOINT_METHODS = new Set(['GET', 'POST', 'DELETE']);

/**
 * 405 Method Not Allowed (RFC 9110 section 15.5.6, with the `Allow` header it requires) for any
 * method but GET, POST and DELETE; with CORS on, `Allow` lists OPTIONS too (preflights are answered before).
 */
export function methodRefusal(method: string, cors: boolean): HttpRefusal | undefined {
  if (ENDPOINT_METHODS.has(method)) return undefined;
  return {
    status: 405,
    code: HttpRpcError.SERVER_ERROR,
    message: `Method not allowed: ${method} (use POST, GET or DELETE).`,
    headers: { Allow: cors ? 'GET, POST, DELETE, OPTIONS' : 'GET, POST, DELETE' },
  };
}

/**
 * DNS-rebinding protection (MCP Streamable HTTP, security warning): 403 when the `Host` hostname is
 * not in `allowedHosts` or a present `Origin` hostname is not in `allowedOrigins` (ports ignored; an
 * absent list skips that check).
 */
export function hostOriginRefusal(
  host: string | undefined,
  origin: string | undefined,
  allowedHosts?: string[],
  allowedOrigins?: string[],
): HttpRefusal | undefined {
  const forbidden = (message: string): HttpRefusal => ({
    status: 403,
    code: HttpRpcError.SERVER_ERROR,
    message: `Forbidden: ${message}`,
  });
  if (allowedHosts) {
    const checked = validateHostHeader(host, allowedHosts);
    if (!checked.ok) return forbidden(checked.message);
  }
  if (allowedOrigins) {
    const checked = validateOriginHeader(origin, allowedOrigins);
    if (!checked.ok) return forbidden(checked.message);
  }
  return undefined;
}

/** Turns what an `authenticate` hook threw into the answer: status, challenge and a message safe to show. */
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

/** How the endpoint answers a request its `authenticate` hook refused. */
export interface AuthSettings {
  /** `WWW-Authenticate` when the refusal names none. */
  defaultChallenge: string;
  resourceMetadataUrl?: string;
  logger: Logger;
}

/** What an `authenticate` hook decided: the caller's auth info, or the answer refusing it. */
export type AuthOutcome = { auth: AuthInfo } | { refusal: HttpRefusal };

/**
 * Runs an `authenticate` hook: its auth info, or the refusal. `undefined`/`null` or a throw is 401 with
 * `WWW-Authenticate`: an `AuthenticationError` chooses status, challenge and message; the SDK's
 * `OAuthError` (`invalid_token` 401, `insufficient_scope` 403) gets the SDK's bearer challenge; the
 * messages of other errors are not sent to the client. A hook that answers without a promise (a
 * remembered token) is decided without one.
 */
export function authenticateWith(
  run: () => AuthInfo | undefined | null | Promise<AuthInfo | undefined | null>,
  settings: AuthSettings,
): AuthOutcome | Promise<AuthOutcome> {
  let answer: ReturnType<typeof run>;
  try {
    answer = run();
  } catch (error) {
    return refused(error, settings);
  }
  if (!(answer instanceof Promise)) return decided(answer, settings);
  return answer.then(
    (auth) => decided(auth, settings),
    (error: unknown) => refused(error, settings),
  );
}

function decided(auth: AuthInfo | undefined | null, settings: AuthSettings): AuthOutcome {
  if (auth) return { auth };
  return refusalAnswer(new AuthenticationError('Unauthorized: authentication required'), settings.defaultChallenge);
}

function refused(error: unknown, settings: AuthSettings): AuthOutcome {
  settings.logger.debug({ err: error }, 'authenticate() refused a request');
  return refusalAnswer(refusalOf(error, settings.resourceMetadataUrl), settings.defaultChallenge);
}

function refusalAnswer(refusal: AuthenticationError, defaultChallenge: string): AuthOutcome {
  return {
    refusal: {
      status: refusal.status,
      code: HttpRpcError.SERVER_ERROR,
      message: refusal.message,
      headers: { 'WWW-Authenticate': refusal.challenge ?? defaultChallenge },
    },
  };
}

const UTF8_CHARSET = /;\s*charset\s*=\s*"?(utf-?8)"?\s*(;|$)/i;
const ANY_CHARSET = /;\s*charset\s*=/i;

/** What a POST's headers say before any byte is read: 415 for a type other than JSON (UTF-8) or a compressed body. */
export function bodyHeaderRefusal(
  contentType: string | undefined,
  contentEncoding: string | undefined,
): HttpRefusal | undefined {
  if (
    !isJsonContentType(contentType) ||
    (ANY_CHARSET.test(contentType ?? '') && !UTF8_CHARSET.test(contentType ?? ''))
  ) {
    return {
      status: 415,
      code: HttpRpcError.SERVER_ERROR,
      message: 'Unsupported Media Type: Content-Type must be application/json (UTF-8)',
    };
  }
  if (contentEncoding !== undefined && contentEncoding.toLowerCase() !== 'identity') {
    return {
      status: 415,
      code: HttpRpcError.SERVER_ERROR,
      message: `Unsupported Content-Encoding: ${contentEncoding}`,
    };
  }
  return undefined;
}

/** 413 for a body over `limit` bytes (declared or received). */
export function payloadTooLarge(limit: number): HttpRefusal {
  return {
    status: 413,
    code: HttpRpcError.SERVER_ERROR,
    message: `Payload Too Large: request body must not exceed ${limit} bytes`,
  };
}

/** 400 for a body whose connection broke off. */
export const BODY_CUT_OFF: HttpRefusal = Object.freeze({
  status: 400,
  code: HttpRpcError.SERVER_ERROR,
  message: 'Bad Request: the request body was cut off',
});

/**
 * Parses a POST body (UTF-8 text) as one JSON-RPC message: 400 `-32700 Parse error` for malformed or
 * empty JSON, 400 `-32600 Invalid Request` (a prepared response carrying the request's id when it can be
 * read, see `json-rpc-shape.ts`) for JSON that is not one JSON-RPC message (a batch, a fractional id, `_meta: null`).
 */
export function parseJsonRpcBody(
  text: string,
): { body: unknown } | { refusal: HttpRefusal } | { response: RefusalResponse } {
  let body: unknown;
  try {
    body = text.length === 0 ? undefined : JSON.parse(text);
  } catch {
    return { refusal: { status: 400, code: HttpRpcError.PARSE_ERROR, message: 'Parse error: Invalid JSON' } };
  }
  if (body === undefined) {
    return { refusal: { status: 400, code: HttpRpcError.PARSE_ERROR, message: 'Parse error: empty request body' } };
  }
  // Valid JSON that is not a JSON-RPC message (or a batch) is -32600, not -32700 (JSON-RPC 2.0 section 5.1).
  const checked = checkJsonRpcMessage(body);
  return 'refusal' in checked ? { response: checked.refusal } : { body };
}

/** The scopes one request needs, by method and the name it targets (undefined: none beyond the endpoint's). */
export type RequiredScopesOf = (method: string, params: Record<string, unknown>) => readonly string[] | undefined;

/**
 * Step-up at the HTTP layer (MCP authorization, scope challenge handling): a request that names an item
 * whose `requiredScopes` the token lacks is refused 403 with `WWW-Authenticate: Bearer
 * error="insufficient_scope", scope="…"` before any view sees it, on both eras.
 */
export function scopeRefusal(
  resourceServer: ResourceServer,
  resource: string,
  body: unknown,
  auth: AuthInfo | undefined,
  requiredOf: RequiredScopesOf,
): HttpRefusal | undefined {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  let missing: Set<string> | undefined; // made for a refusal only: most requests name no scoped item
  for (const message of messages) {
    if (!isPlainObject(message) || typeof message.method !== 'string') continue;
    const params = isPlainObject(message.params) ? message.params : {};
    for (const scope of missingScopes(requiredOf(message.method, params), auth)) (missing ??= new Set()).add(scope);
  }
  if (!missing) return undefined;
  const refusal = resourceServer.insufficientScope(resource, [...missing], auth);
  return {
    status: 403,
    code: HttpRpcError.SERVER_ERROR,
    message: refusal.message,
    headers: { 'WWW-Authenticate': refusal.challenge! },
  };
}
