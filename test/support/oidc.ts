// A real OAuth 2.1 authorization server for tests: oidc-provider in this process on 127.0.0.1,
// issuing JWT (or opaque, for RFC 7662 introspection) access tokens for resource indicators
// (RFC 8707) by the client_credentials grant, and end-user tokens (`sub` = a user) by a test-only
// grant type (`userToken`), so tests need no login page for them.
// `rotateKeys()` swaps in a provider with a new signing key (same issuer and port) mid-run.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** Scopes the test authorization server grants. */
export const AS_SCOPES = ['tools:read', 'tools:write', 'mcp:admin'];

/** Two confidential clients (client_credentials): tokens of the second are another principal. */
export const CLIENT = { id: 'svc-client', secret: 'svc-client-secret-0123456789' } as const;
export const OTHER_CLIENT = { id: 'other-client', secret: 'other-client-secret-0123456789' } as const;

/** The test-only grant type of {@link TestAuthorizationServer.userToken}. */
const USER_GRANT = 'urn:mcp-toolkit:test:user';

async function signingKey(kid: string) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

/** A running oidc-provider; stop it with {@link close}. */
export class TestAuthorizationServer {
  readonly issuer: string;
  /** Access-token lifetime of the next tokens (s). */
  ttlSec = 300;
  /** Format of the next access tokens: JWT (RFC 9068) or opaque (verified by introspection). */
  tokenFormat: 'jwt' | 'opaque' = 'jwt';
  readonly #http: http.Server;
  #handler: http.RequestListener = (_req, res) => void res.writeHead(503).end();
  #keyGeneration = 0;
  #interactive = false;

  private constructor(issuer: string, server: http.Server) {
    this.issuer = issuer;
    this.#http = server;
  }

  /**
   * Starts one on a free 127.0.0.1 port. `interactive` adds what a browser flow needs: Dynamic
   * Client Registration (RFC 7591) and oidc-provider's own login and consent pages (any login and
   * password sign in; the login becomes `sub`); PKCE is required of public clients either way.
   */
  static async start(options: { interactive?: boolean } = {}): Promise<TestAuthorizationServer> {
    const holder: { as?: TestAuthorizationServer } = {};
    const server = http.createServer((req, res) => holder.as!.#handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.as = new TestAuthorizationServer(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, server);
    holder.as.#interactive = options.interactive === true;
    await holder.as.rotateKeys();
    return holder.as;
  }

  /** Replaces the provider by one signing with a fresh key (`kid` changes); old tokens then fail. */
  async rotateKeys(): Promise<string> {
    this.#keyGeneration += 1;
    const kid = `key-${this.#keyGeneration}`;
    const provider = new Provider(this.issuer, {
      clients: [CLIENT, OTHER_CLIENT].map((client) => ({
        client_id: client.id,
        client_secret: client.secret,
        grant_types: ['client_credentials', USER_GRANT],
        redirect_uris: [],
        response_types: [],
        scope: AS_SCOPES.join(' '),
      })),
      jwks: { keys: [await signingKey(kid)] },
      // A registered client is not bound to the scope it registered with: the SDK registers with
      // its first request's scope and steps up to more later (403 insufficient_scope).
      extraClientMetadata: {
        properties: ['mcp_test'],
        validator: (ctx, _key, _value, metadata) => {
          if (ctx?.oidc?.route === 'registration') delete (metadata as { scope?: string }).scope;
        },
      },
      scopes: AS_SCOPES,
      features: {
        devInteractions: { enabled: this.#interactive },
        registration: { enabled: this.#interactive },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined as never,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resourceIndicator) => this.#resourceServerInfo(resourceIndicator),
        },
      },
    });
    provider.registerGrantType(
      USER_GRANT,
      async (ctx) => {
        const { resource, scope, username } = ctx.oidc.params as unknown as Record<string, string>;
        const client = ctx.oidc.client!;
        const grant = new provider.Grant({ accountId: username, clientId: client.clientId });
        grant.addResourceScope(resource!, scope!);
        const grantId = await grant.save();
        const token = new provider.AccessToken({ accountId: username!, client, grantId, scope, gty: USER_GRANT });
        token.resourceServer = new provider.ResourceServer(resource!, this.#resourceServerInfo(resource!));
        ctx.body = { access_token: await token.save(), token_type: 'Bearer', expires_in: token.expiration, scope };
      },
      ['resource', 'scope', 'username'],
    );
    this.#handler = provider.callback() as unknown as http.RequestListener;
    return kid;
  }

  #resourceServerInfo(resourceIndicator: string) {
    return {
      scope: AS_SCOPES.join(' '),
      audience: resourceIndicator,
      accessTokenTTL: this.ttlSec,
      accessTokenFormat: this.tokenFormat,
      ...(this.tokenFormat === 'jwt' && { jwt: { sign: { alg: 'RS256' as const } } }),
    };
  }

  /** A client_credentials access token for `resource` with `scopes`. */
  token(
    resource: string,
    scopes: readonly string[] = AS_SCOPES,
    client: typeof CLIENT | typeof OTHER_CLIENT = CLIENT,
  ): Promise<string> {
    return this.#grant(client, { grant_type: 'client_credentials', resource, scope: scopes.join(' ') });
  }

  /** An access token of end user `username` (its `sub`) for `resource`, issued to {@link CLIENT}. */
  userToken(resource: string, username: string, scopes: readonly string[] = AS_SCOPES): Promise<string> {
    return this.#grant(CLIENT, { grant_type: USER_GRANT, resource, scope: scopes.join(' '), username });
  }

  async #grant(client: typeof CLIENT | typeof OTHER_CLIENT, form: Record<string, string>): Promise<string> {
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form),
    });
    const body = (await response.json()) as { access_token?: string };
    if (!response.ok || !body.access_token)
      throw new Error(`token endpoint: ${response.status} ${JSON.stringify(body)}`);
    return body.access_token;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#http.close(() => resolve());
      this.#http.closeAllConnections();
    });
  }
}
