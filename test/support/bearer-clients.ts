// Clients that send an OAuth access token: the v1 or v2 SDK Streamable HTTP transport with an
// Authorization header, connected through the contract suite's client surface.
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { startServer } from '../e2e/http-helpers.js';
import { connectClient, type ClientKind, type TestClient } from './clients.js';
import { TestAuthorizationServer } from './oidc.js';

/** The `Authorization` header of a bearer token. */
export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A v1 or v2 Streamable HTTP client transport that sends `token` on every request. */
export function bearerTransport(kind: ClientKind, url: string, token: string): HttpV1 | HttpV2 {
  const requestInit = { headers: bearer(token) };
  return kind === 'v1' ? new HttpV1(new URL(url), { requestInit }) : new HttpV2(new URL(url), { requestInit });
}

/** A client of `kind` connected to `url` with `token`. */
export function connectWithToken(kind: ClientKind, url: string, token: string): Promise<TestClient> {
  return connectClient(kind, bearerTransport(kind, url, token));
}

/** An HttpMcpServer with `authorization` against a running oidc-provider, for one describe block. */
export interface AuthorizedServer {
  readonly as: TestAuthorizationServer;
  readonly server: HttpMcpServer;
  readonly url: string;
  /** A client of `kind` with a fresh token holding `scopes`. */
  connect(kind: ClientKind, scopes: readonly string[]): Promise<TestClient>;
}

/**
 * Starts the authorization server and `startServer({ authorization: { issuer, requiredScopes:
 * ['tools:read'] } })` before the block's tests (then `register` adds the block's items), and
 * stops both after them.
 */
export function useAuthorizedServer(register: (server: HttpMcpServer) => void): AuthorizedServer {
  const state: { as?: TestAuthorizationServer; server?: HttpMcpServer } = {};
  beforeAll(async () => {
    state.as = await TestAuthorizationServer.start();
    state.server = await startServer({ authorization: { issuer: state.as.issuer, requiredScopes: ['tools:read'] } });
    register(state.server);
  });
  afterAll(async () => {
    await state.server?.stop();
    await state.as?.close();
  });
  return {
    get as() {
      return state.as!;
    },
    get server() {
      return state.server!;
    },
    get url() {
      return state.server!.address.url;
    },
    async connect(kind, scopes) {
      return connectWithToken(kind, this.url, await this.as.token(this.url, scopes));
    },
  };
}
