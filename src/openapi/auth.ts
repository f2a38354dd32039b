import type { PlannedRequest } from './http-request.js';
import type { OpenApiDocument, OperationObject, SecurityRequirement, SecuritySchemeObject } from './spec-types.js';

/**
 * A credential for one security scheme of the spec: a string (the API key, or the bearer token
 * for `http` bearer, `oauth2` and `openIdConnect` schemes; `user:password` for `http` basic), or
 * `{ username, password }` for `http` basic.
 */
export type OpenApiCredential = string | { username: string; password: string };

/** How one operation authenticates, resolved once when the tool is built. */
export interface AuthPlan {
  /** Applies the first security requirement of the operation whose schemes all have credentials. */
  apply(request: PlannedRequest): void;
  /** The scheme names the operation accepts, for error messages (`api_key or petstore_auth`). */
  readonly accepted: readonly string[];
}

function basic(credential: OpenApiCredential): string {
  const pair = typeof credential === 'string' ? credential : `${credential.username}:${credential.password}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

function applyScheme(request: PlannedRequest, scheme: SecuritySchemeObject, credential: OpenApiCredential): void {
  const secret = typeof credential === 'string' ? credential : `${credential.username}:${credential.password}`;
  if (scheme.type === 'apiKey' && scheme.name) {
    if (scheme.in === 'query') request.url.searchParams.set(scheme.name, secret);
    else if (scheme.in === 'cookie') {
      const cookie = `${scheme.name}=${encodeURIComponent(secret)}`;
      const existing = request.headers.get('cookie');
      request.headers.set('cookie', existing ? `${existing}; ${cookie}` : cookie);
    } else request.headers.set(scheme.name, secret);
  } else if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
    request.headers.set('authorization', basic(credential));
  } else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') {
    const prefix = scheme.type === 'http' && scheme.scheme ? scheme.scheme : 'Bearer';
    request.headers.set('authorization', `${prefix.charAt(0).toUpperCase()}${prefix.slice(1)} ${secret}`);
  }
}

/**
 * Plans an operation's authentication (OpenAPI 3.x "Security Requirement Object"): its own
 * `security`, else the document's. Requirements are tried in order; the first whose schemes
 * all have a credential is applied. An empty requirement (`{}`) means "no auth needed".
 */
export function planAuth(
  document: OpenApiDocument,
  operation: OperationObject,
  credentials: Readonly<Record<string, OpenApiCredential>>,
): AuthPlan {
  const requirements: SecurityRequirement[] = operation.security ?? document.security ?? [];
  const schemes = document.components?.securitySchemes ?? {};
  const usable = requirements.find((requirement) =>
    Object.keys(requirement).every((name) => credentials[name] !== undefined && schemes[name] !== undefined),
  );
  const accepted = [...new Set(requirements.flatMap((requirement) => Object.keys(requirement)))];
  return {
    accepted,
    apply(request) {
      if (!usable) return;
      for (const name of Object.keys(usable)) applyScheme(request, schemes[name]!, credentials[name]!);
    },
  };
}
