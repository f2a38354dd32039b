// requiredScopes and canAccess on resources and resource templates, with HttpMcpServer({ authorization })
// and real tokens from a real authorization server (oidc-provider): hidden from resources/list and
// resources/templates/list of a token without the scope, refused on resources/read (403
// insufficient_scope at the HTTP layer; "Resource not found" for a canAccess refusal) on both eras,
// with the v2 client in both eras and the v1 client.
import { beforeAll, describe, expect, it } from 'vitest';
import { definePrompt } from '../../src/prompts/prompt.js';
import { bearer, useAuthorizedServer } from '../support/bearer-clients.js';
import { CLIENT_KINDS } from '../support/clients.js';
import { TestAuthorizationServer } from '../support/oidc.js';
import { messages, openSession, post, postModern, sessionHeaders } from '../e2e/http-helpers.js';

describe('requiredScopes and canAccess on resources and templates (OAuth resource server)', () => {
  const fixture = useAuthorizedServer((server) => {
    server.registerResource({ uri: 'notes://public', name: 'public', read: () => 'for everyone' });
    server.registerResource({
      uri: 'notes://secret',
      name: 'secret',
      requiredScopes: ['tools:write'],
      read: () => 'for writers',
    });
    server.registerResource({
      uri: 'notes://staff',
      name: 'staff',
      canAccess: (auth) => auth?.clientId === 'staff-app',
      read: () => 'for staff',
    });
    server.registerResourceTemplate({
      uriTemplate: 'drafts://{id}',
      name: 'draft',
      requiredScopes: ['tools:write'],
      complete: { id: ['one', 'two'] },
      list: () => [{ uri: 'drafts://one', name: 'draft one' }],
      read: (_uri, { id }) => `draft ${String(id)}`,
    });
    server.registerResourceTemplate({
      uriTemplate: 'pages://{id}',
      name: 'page',
      list: () => [{ uri: 'pages://home', name: 'home page' }],
      read: (_uri, { id }) => `page ${String(id)}`,
    });
    server.registerPrompt(
      definePrompt({
        name: 'staff_note',
        canAccess: (auth) => auth?.clientId === 'staff-app',
        arguments: [{ name: 'topic', enum: ['secret plans'] }],
        load: () => 'Staff only.',
      }),
    );
  });
  let as: TestAuthorizationServer;
  let url: string;
  beforeAll(() => {
    ({ as, url } = fixture);
  });

  it.each(CLIENT_KINDS)('%s: hidden from the lists without the scope, listed and readable with it', async (kind) => {
    const reader = await fixture.connect(kind, ['tools:read']);
    expect((await reader.resources()).map((r) => r.uri)).toEqual(['notes://public', 'pages://home']);
    expect((await reader.resourceTemplates()).map((t) => t.uriTemplate)).toEqual(['pages://{id}']);
    expect((await reader.readResource('notes://public')).contents[0]?.text).toBe('for everyone');
    expect((await reader.readResource('pages://x')).contents[0]?.text).toBe('page x');
    await reader.close();

    const writer = await fixture.connect(kind, ['tools:read', 'tools:write']);
    expect((await writer.resources()).map((r) => r.uri)).toEqual([
      'notes://public',
      'notes://secret',
      'drafts://one',
      'pages://home',
    ]);
    expect((await writer.resourceTemplates()).map((t) => t.uriTemplate)).toEqual(['drafts://{id}', 'pages://{id}']);
    expect((await writer.readResource('notes://secret')).contents[0]?.text).toBe('for writers');
    expect((await writer.readResource('drafts://two')).contents[0]?.text).toBe('draft two');
    expect(
      (await writer.complete({ type: 'ref/resource', uri: 'drafts://{id}' }, { name: 'id', value: 't' })).values,
    ).toEqual(['two']);
    // canAccess refuses this client whatever its scopes: not listed, not found on read.
    await expect(writer.readResource('notes://staff')).rejects.toThrow(/Resource not found/);
    // Completion does not reach a prompt its caller may not see either.
    await expect(
      writer.complete({ type: 'ref/prompt', name: 'staff_note' }, { name: 'topic', value: '' }),
    ).rejects.toThrow(/Unknown prompt "staff_note"/);
    await writer.close();
  });

  it.each(CLIENT_KINDS)('%s: a read without the scope is refused with the scope it lacks', async (kind) => {
    const reader = await fixture.connect(kind, ['tools:read']);
    await expect(reader.readResource('notes://secret')).rejects.toThrow(/tools:write/);
    await expect(reader.readResource('drafts://one')).rejects.toThrow(/tools:write/);
    await expect(
      reader.complete({ type: 'ref/resource', uri: 'drafts://{id}' }, { name: 'id', value: '' }),
    ).rejects.toThrow(/tools:write/);
    await reader.close();
  });

  it('resources/read without the scope: 403 insufficient_scope naming it, on both eras', async () => {
    const token = await as.token(url, ['tools:read']);
    const expected = `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="tools:read tools:write", error="insufficient_scope", error_description="Forbidden: this needs the scope tools:write"`;
    const id = await openSession(url, bearer(token));
    for (const uri of ['notes://secret', 'drafts://7']) {
      const legacy = await post(
        url,
        { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri } },
        sessionHeaders(id, bearer(token)),
      );
      expect(legacy.status).toBe(403);
      expect(legacy.headers.get('www-authenticate')).toBe(expected);
      expect(await messages(legacy)).toMatchObject([
        { error: { message: 'Forbidden: this needs the scope tools:write' } },
      ]);
      const modern = await postModern(url, { id: 3, method: 'resources/read', params: { uri } }, {}, bearer(token));
      expect(modern.status).toBe(403);
    }
    // Other resources and a canAccess refusal are not step-up cases: 200 with the read or a JSON-RPC error.
    const open = await postModern(
      url,
      { id: 4, method: 'resources/read', params: { uri: 'notes://public' } },
      {},
      bearer(token),
    );
    expect(open.status).toBe(200);
    expect(open.message).toMatchObject({ result: { contents: [{ text: 'for everyone' }] } });
    const staff = await postModern(
      url,
      { id: 5, method: 'resources/read', params: { uri: 'notes://staff' } },
      {},
      bearer(token),
    );
    expect(staff.status).toBe(200);
    expect(staff.message).toMatchObject({ error: { code: -32602, message: expect.stringMatching(/not found/) } });
  });

  it('resources/subscribe (legacy) to a resource or template the caller may not see: not found', async () => {
    const token = await as.token(url, ['tools:read']);
    const id = await openSession(url, bearer(token));
    const subscribe = async (uri: string, rpcId: number) =>
      (
        await messages(
          await post(
            url,
            { jsonrpc: '2.0', id: rpcId, method: 'resources/subscribe', params: { uri } },
            sessionHeaders(id, bearer(token)),
          ),
        )
      )[0];
    for (const [i, uri] of ['notes://staff', 'notes://secret', 'drafts://7'].entries()) {
      expect(await subscribe(uri, 10 + i)).toMatchObject({ error: { message: expect.stringMatching(/not found/i) } });
    }
    // What the caller may see (and URIs nothing serves yet) can still be subscribed to.
    expect(await subscribe('notes://public', 20)).toMatchObject({ result: {} });
    expect(await subscribe('notes://later', 21)).toMatchObject({ result: {} });
  });
});
