// @needs chromium
// The whole MCP authorization flow with real parts: the official v2 client's OAuth support
// (401 -> RFC 9728 metadata -> authorization server discovery -> Dynamic Client Registration ->
// authorization code with PKCE) against oidc-provider, whose login and consent pages are completed
// in Debian's chromium driven by playwright-core; then the client lists and calls a scoped tool on
// HttpMcpServer, and steps up (403 insufficient_scope -> re-authorization -> success). Both eras.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  UnauthorizedError,
  StreamableHTTPClientTransport,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { principalOf } from '../../src/auth/principal.js';
import { defineTool } from '../../src/registry/tool.js';
import { launchChromium } from '../admin/chromium.js';
import { connectClient, type ClientKind, type TestClient } from '../support/clients.js';
import { TestAuthorizationServer } from '../support/oidc.js';
import { startServer } from '../e2e/http-helpers.js';

type ProviderState = {
  client?: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  tokens?: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  verifier?: string;
  discovery?: Awaited<ReturnType<NonNullable<OAuthClientProvider['discoveryState']>>>;
};

/**
 * An interactive OAuth client (what an MCP host app implements): it keeps what the SDK hands it
 * and, when the SDK sends the user to the authorization server, signs in and consents in chromium,
 * then remembers the callback URL the browser was sent back to.
 */
class BrowserOAuthProvider implements OAuthClientProvider {
  readonly saved: ProviderState = {};
  /** Authorization URLs the SDK opened, in order. */
  readonly authorizations: URL[] = [];
  callback?: URL;

  constructor(
    private readonly browser: BrowserContext,
    private readonly redirect: string,
    private readonly user: string,
  ) {}

  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return {
      client_name: 'mcp-toolkit browser test',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.saved.client;
  }
  saveClientInformation(info: NonNullable<ProviderState['client']>) {
    this.saved.client = info;
  }
  tokens() {
    return this.saved.tokens;
  }
  saveTokens(tokens: NonNullable<ProviderState['tokens']>) {
    this.saved.tokens = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.saved.verifier = verifier;
  }
  // Kept with the code verifier, so the callback is checked against the same authorization server (SEP-2352).
  saveDiscoveryState(discovery: NonNullable<ProviderState['discovery']>) {
    this.saved.discovery = discovery;
  }
  discoveryState() {
    return this.saved.discovery;
  }
  codeVerifier() {
    if (!this.saved.verifier) throw new Error('no PKCE code verifier saved');
    return this.saved.verifier;
  }

  async redirectToAuthorization(url: URL) {
    this.authorizations.push(url);
    const page = await this.browser.newPage();
    try {
      await page.goto(url.href);
      // Login (first time only: the session cookie stays), then consent, then back to the redirect URI.
      for (let step = 0; step < 4 && !page.url().startsWith(this.redirect); step += 1) {
        const before = page.url();
        if ((await page.locator('input[name="login"]').count()) > 0) {
          await page.fill('input[name="login"]', this.user);
          await page.fill('input[name="password"]', 'any password');
        }
        await page.click('button[type="submit"]');
        await page.waitForURL((next) => next.href !== before);
      }
      this.callback = new URL(page.url());
      expect(this.callback.href.startsWith(this.redirect), `ended at ${page.url()}`).toBe(true);
    } finally {
      await page.close();
    }
  }
}

describe('browser OAuth flow: v2 client, oidc-provider login and consent in chromium, HttpMcpServer', () => {
  let as: TestAuthorizationServer;
  let server: HttpMcpServer;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let callbackServer: http.Server;
  let redirect: string;
  beforeAll(async () => {
    as = await TestAuthorizationServer.start({ interactive: true });
    server = await startServer({
      authorization: {
        issuer: as.issuer,
        requiredScopes: ['tools:read'],
        scopesSupported: ['tools:read', 'tools:write'],
      },
    });
    server.registerTool(
      defineTool({
        name: 'read_notes',
        requiredScopes: ['tools:read'],
        execute: (_args, context) => `notes of ${principalOf(context.authInfo)?.subject ?? '?'}`,
      }),
    );
    server.registerTool(
      defineTool({
        name: 'write_note',
        requiredScopes: ['tools:write'],
        execute: (_args, context) => `written by ${principalOf(context.authInfo)?.subject ?? '?'}`,
      }),
    );
    // The MCP host's redirect URI: a loopback page the browser lands on with ?code=&state=&iss=.
    callbackServer = http.createServer(
      (_req, res) => void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('Signed in.'),
    );
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    redirect = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => callbackServer?.close(resolve));
    await server?.stop();
    await as?.close();
  });

  /** Connects `kind` with `provider`; on the SDK's UnauthorizedError, finishes the flow and connects again. */
  async function connectAuthorized(kind: ClientKind, provider: BrowserOAuthProvider) {
    const url = new URL(server.address.url);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(connectClient(kind, first)).rejects.toThrow(UnauthorizedError);
    await first.finishAuth(provider.callback!.searchParams);
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    return { client: await connectClient(kind, transport), transport };
  }

  it.each(['v2-modern', 'v2-legacy'] as const)(
    '%s: 401 -> discovery -> DCR -> PKCE code flow in chromium -> scoped tool; then step-up for another scope',
    async (kind) => {
      const user = kind === 'v2-modern' ? 'ada' : 'grace';
      await browser.context.clearCookies(); // a new user at the authorization server
      const provider = new BrowserOAuthProvider(browser.context, redirect, user);
      let { client, transport }: { client: TestClient; transport: StreamableHTTPClientTransport } =
        await connectAuthorized(kind, provider);

      // What the SDK did: registered itself (DCR), asked for the challenge's scope with PKCE S256
      // and a resource indicator naming this server.
      expect(provider.saved.client?.client_id).toEqual(expect.any(String));
      const [authorization] = provider.authorizations;
      expect(authorization!.origin).toBe(as.issuer);
      expect(authorization!.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorization!.searchParams.get('resource')).toBe(server.address.url);
      expect(authorization!.searchParams.get('scope')).toBe('tools:read');
      expect(provider.saved.tokens?.access_token.split('.')).toHaveLength(3); // a JWT from oidc-provider

      expect(await client.toolNames()).toEqual(expect.arrayContaining(['echo', 'read_notes']));
      expect(await client.toolNames()).not.toContain('write_note');
      expect((await client.callTool('read_notes', {})).content[0]?.text).toBe(`notes of ${user}`);

      // Step-up: write_note needs tools:write -> 403 insufficient_scope -> the SDK re-authorizes
      // (consent again, the login is remembered) -> the call succeeds with the new token.
      await expect(client.callTool('write_note', {})).rejects.toThrow(UnauthorizedError);
      expect(provider.authorizations).toHaveLength(2);
      expect(provider.authorizations[1]!.searchParams.get('scope')?.split(' ').sort()).toEqual([
        'tools:read',
        'tools:write',
      ]);
      await transport.finishAuth(provider.callback!.searchParams);
      expect((await client.callTool('write_note', {})).content[0]?.text).toBe(`written by ${user}`);
      await client.close();

      // A fresh connection with the stepped-up token sees the tool in its list.
      transport = new StreamableHTTPClientTransport(new URL(server.address.url), { authProvider: provider });
      client = await connectClient(kind, transport);
      expect(await client.toolNames()).toContain('write_note');
      await client.close();
    },
    60_000,
  );
});
