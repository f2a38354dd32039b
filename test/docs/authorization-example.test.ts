// The examples of docs/authorization.md (quoted from here, so they are type-checked and run).
// They import the package by name, as an app does (Node resolves a package's own name to its build).
import { afterEach, describe, expect, it } from 'vitest';
// #region setup
import { HttpMcpServer, defineTool, definePrompt } from 'mcp-toolkit';
import { principalOf } from 'mcp-toolkit/auth';

const server = new HttpMcpServer(
  { name: 'notes', version: '1.0.0' },
  {
    host: '0.0.0.0',
    port: 3000,
    allowedHosts: ['mcp.example.com'],
    authorization: {
      issuer: 'https://kc.example.com/realms/mcp', // the authorization server's `iss`
      audience: 'https://mcp.example.com/mcp', // this server's public URL: the tokens' `aud`
      requiredScopes: ['notes:read'], // every request needs these
      scopesSupported: ['notes:read', 'notes:write', 'mcp:admin'],
    },
  },
);
server.registerTool(
  defineTool({
    name: 'add_note',
    requiredScopes: ['notes:write'], // hidden without it; a call gets 403 insufficient_scope
    execute: (_args, context) => `saved for ${principalOf(context.authInfo)?.subject}`,
  }),
);
server.registerPrompt(definePrompt({ name: 'weekly_review', requiredScopes: ['notes:write'], load: () => '…' }));
server.registerResource({
  uri: 'notes://all',
  name: 'all notes',
  requiredScopes: ['notes:read'],
  canAccess: (auth) => principalOf(auth)?.claims.email_verified === true,
  read: () => 'the notes',
});
// #endregion setup

// #region verifier
import type { AccessTokenVerifier } from 'mcp-toolkit/auth';
import { AuthenticationError } from 'mcp-toolkit';

const apiKeys = new Map([['key-0123', { sub: 'ci-bot', scope: 'notes:read' }]]);
const verifyToken: AccessTokenVerifier = (token) => {
  const key = apiKeys.get(token);
  if (!key) throw new AuthenticationError('Unauthorized: unknown API key'); // 401 invalid_token with this text
  return { ...key, client_id: 'ci' }; // sub, client_id, scope, exp...: the principal's claims
};
const keyed = new HttpMcpServer(
  { name: 'notes', version: '1.0.0' },
  { authorization: { issuer: 'https://kc.example.com/realms/mcp', verifyToken } },
);
// #endregion verifier

// #region app-test
import { connectInMemory } from 'mcp-toolkit/testing';

it('a reader does not see add_note; a writer calls it as themselves', async () => {
  const reader = await connectInMemory(server, { auth: { subject: 'ada', scopes: ['notes:read'] } });
  expect((await reader.client.listTools()).tools.map((tool) => tool.name)).not.toContain('add_note');
  await reader.close();

  const writer = await connectInMemory(server, {
    era: '2026-07-28',
    auth: { subject: 'ada', scopes: ['notes:read', 'notes:write'] },
  });
  const result = await writer.client.callTool({ name: 'add_note', arguments: {} });
  expect(result.content).toEqual([{ type: 'text', text: 'saved for ada' }]);
  await writer.close();
});
// #endregion app-test

describe('the other examples', () => {
  afterEach(async () => {
    await server.stop();
    await keyed.stop();
  });
  it('canAccess on the resource reads the principal claims', async () => {
    const plain = await connectInMemory(server, { auth: { subject: 'ada', scopes: ['notes:read'] } });
    expect((await plain.client.listResources()).resources).toEqual([]);
    await plain.close();
    const verified = await connectInMemory(server, {
      auth: { subject: 'ada', scopes: ['notes:read'], claims: { email_verified: true } },
    });
    expect((await verified.client.listResources()).resources.map((r) => r.uri)).toEqual(['notes://all']);
    await verified.close();
  });
});
