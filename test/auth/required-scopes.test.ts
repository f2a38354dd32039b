// requiredScopes on tools with HttpMcpServer({ authorization }) and a real authorization server
// (oidc-provider): hidden from tools/list of a token without the scope, refused on tools/call
// with 403 insufficient_scope naming it (step-up), on both eras and with the v1 and v2 clients.
import { beforeAll, describe, expect, it } from 'vitest';
import { definePrompt } from '../../src/prompts/prompt.js';
import { defineTool } from '../../src/registry/tool.js';
import { bearer, useAuthorizedServer } from '../support/bearer-clients.js';
import { CLIENT_KINDS } from '../support/clients.js';
import { TestAuthorizationServer } from '../support/oidc.js';
import { messages, openSession, post, postModern, sessionHeaders } from '../e2e/http-helpers.js';

describe('requiredScopes on tools (OAuth resource server)', () => {
  const fixture = useAuthorizedServer((server) => {
    server.registerTool(
      defineTool({
        name: 'write_note',
        requiredScopes: ['tools:write'],
        execute: (_args, context) => context.authInfo?.scopes.join(' ') ?? '',
      }),
    );
    server.registerPrompt(
      definePrompt({ name: 'draft', requiredScopes: ['tools:write'], load: () => 'Draft a note.' }),
    );
    server.registerPrompt(definePrompt({ name: 'open', load: () => 'Anyone may read this.' }));
    server.registerPrompt(
      definePrompt({ name: 'staff', canAccess: (auth) => auth?.clientId === 'staff-app', load: () => 'Staff only.' }),
    );
  });
  let as: TestAuthorizationServer;
  let url: string;
  beforeAll(() => {
    ({ as, url } = fixture);
  });

  it.each(CLIENT_KINDS)('%s: hidden from tools/list without the scope, listed and callable with it', async (kind) => {
    const reader = await fixture.connect(kind, ['tools:read']);
    expect(await reader.toolNames()).not.toContain('write_note');
    expect(await reader.toolNames()).toContain('echo');
    await reader.close();
    const writer = await fixture.connect(kind, ['tools:read', 'tools:write']);
    expect(await writer.toolNames()).toContain('write_note');
    expect((await writer.callTool('write_note', {})).content[0]?.text).toBe('tools:read tools:write');
    await writer.close();
  });

  it('tools/call without the scope: 403 insufficient_scope naming it, on both eras', async () => {
    const token = await as.token(url, ['tools:read']);
    const expected = `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="tools:read tools:write", error="insufficient_scope", error_description="Forbidden: this needs the scope tools:write"`;
    const id = await openSession(url, bearer(token));
    const legacy = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'write_note', arguments: {} } },
      sessionHeaders(id, bearer(token)),
    );
    expect(legacy.status).toBe(403);
    expect(legacy.headers.get('www-authenticate')).toBe(expected);
    expect(await messages(legacy)).toMatchObject([
      { error: { message: 'Forbidden: this needs the scope tools:write' } },
    ]);
    const modern = await postModern(
      url,
      { id: 3, method: 'tools/call', params: { name: 'write_note', arguments: {} } },
      {},
      bearer(token),
    );
    expect(modern.status).toBe(403);
    // Other tools are not gated.
    const echo = await postModern(
      url,
      { id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
      {},
      bearer(token),
    );
    expect(echo.status).toBe(200);
    expect(echo.message).toMatchObject({ result: { content: [{ text: 'hi' }] } });
  });

  it('the v2 client sees the step-up challenge on tools/call', async () => {
    const client = await fixture.connect('v2-modern', ['tools:read']);
    await expect(client.callTool('write_note', {})).rejects.toThrow(/tools:write/);
    await client.close();
  });

  it.each(CLIENT_KINDS)('%s: prompts follow requiredScopes and canAccess as tools do', async (kind) => {
    const reader = await fixture.connect(kind, ['tools:read']);
    expect((await reader.prompts()).map((prompt) => prompt.name)).toEqual(['open']);
    await expect(reader.getPrompt('staff')).rejects.toThrow(/Unknown prompt "staff"/);
    await reader.close();
    const writer = await fixture.connect(kind, ['tools:read', 'tools:write']);
    expect((await writer.prompts()).map((prompt) => prompt.name)).toEqual(['draft', 'open']);
    expect((await writer.getPrompt('draft')).messages[0]?.content.text).toBe('Draft a note.');
    await writer.close();
  });

  it('prompts/get without the scope: 403 insufficient_scope naming it', async () => {
    const token = await as.token(url, ['tools:read']);
    const modern = await postModern(
      url,
      { id: 5, method: 'prompts/get', params: { name: 'draft' } },
      {},
      bearer(token),
    );
    expect(modern.status).toBe(403);
    const legacy = await post(
      url,
      { jsonrpc: '2.0', id: 6, method: 'prompts/get', params: { name: 'draft' } },
      sessionHeaders(await openSession(url, bearer(token)), bearer(token)),
    );
    expect(legacy.status).toBe(403);
    expect(legacy.headers.get('www-authenticate')).toContain(
      'error="insufficient_scope", error_description="Forbidden: this needs the scope tools:write"',
    );
  });
});

describe('admin surface with OAuth tokens (admin scope)', () => {
  it('adminRouter accepts an access token with mcp:admin besides its own token; others get 401', async () => {
    const { adminRouter } = await import('../../src/admin/admin-router.js');
    const as = await TestAuthorizationServer.start();
    const { HttpMcpServer } = await import('../../src/mcp/http-server.js');
    const server = new HttpMcpServer(
      { name: 'admin-auth', version: '1.0.0' },
      { port: 0, authorization: { issuer: as.issuer, requiredScopes: ['tools:read'] } },
    );
    server.app.use('/admin', adminRouter(server, { token: 'admin-token-0123456789abcdef' }));
    try {
      await server.start();
      const base = `${new URL(server.address.url).origin}/admin/api/tools`;
      const admin = await as.token(server.address.url, ['mcp:admin']);
      expect((await fetch(base, { headers: bearer(admin) })).status).toBe(200);
      const reader = await as.token(server.address.url, ['tools:read']);
      expect((await fetch(base, { headers: bearer(reader) })).status).toBe(401);
      expect((await fetch(base, { headers: bearer('admin-token-0123456789abcdef') })).status).toBe(200);
    } finally {
      await server.stop();
      await as.close();
    }
  });
});
