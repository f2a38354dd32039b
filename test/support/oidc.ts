// A real OAuth 2.1 authorization server for tests: oidc-provider in this process on 127.0.0.1,
// issuing JWT access tokens for resource indicators (RFC 8707) by the client_credentials grant.
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

async function signingKey(kid: string) {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
}

/** A running oidc-provider; stop it with {@link close}. */
export class TestAuthorizationServer {
  readonly issuer: string;
  /** Access-token lifetime of the next tokens (s). */
  ttlSec = 300;
  readonly #http: http.Server;
  #handler: http.RequestListener = (_req, res) => void res.writeHead(503).end();
  #keyGeneration = 0;

  private constructor(issuer: string, server: http.Server) {
    this.issuer = issuer;
    this.#http = server;
  }

  /** Starts one on a free 127.0.0.1 port. */
  static async start(): Promise<TestAuthorizationServer> {
    const holder: { as?: TestAuthorizationServer } = {};
    const server = http.createServer((req, res) => holder.as!.#handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.as = new TestAuthorizationServer(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, server);
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
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: AS_SCOPES.join(' '),
      })),
      jwks: { keys: [await signingKey(kid)] },
      scopes: AS_SCOPES,
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => undefined as never,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resourceIndicator) => ({
            scope: AS_SCOPES.join(' '),
            audience: resourceIndicator,
            accessTokenTTL: this.ttlSec,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
    });
    this.#handler = provider.callback() as unknown as http.RequestListener;
    return kid;
  }

  /** A client_credentials access token for `resource` with `scopes`. */
  async token(
    resource: string,
    scopes: readonly string[] = AS_SCOPES,
    client: typeof CLIENT | typeof OTHER_CLIENT = CLIENT,
  ): Promise<string> {
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope: scopes.join(' ') }),
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
