// 2026-07-28 multi-round-trip requests over real HTTP, the way the official conformance suite
// drives them (raw requests carrying `_meta`, `inputResponses` and `requestState`): named input
// keys, several requests in one round, roots, answers of the wrong shape, prompts/get, and the
// -32021 error for a capability the client did not declare.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { messages, post, postModern, startServer } from './http-helpers.js';

const ALL_CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
const ACCEPT_NAME = { action: 'accept', content: { name: 'Ada' } };
const SAMPLED = { role: 'assistant', model: 'm', content: { type: 'text', text: 'Hi' } };
const ROOTS = { roots: [{ uri: 'file:///work', name: 'work' }] };

let server: HttpMcpServer;
let id = 0;

/** One 2026-07-28 request; resolves the HTTP status and the JSON-RPC response. */
async function rpc(method: string, params: Record<string, unknown>, capabilities: object = ALL_CAPABILITIES) {
  const { status, message } = await postModern(server.address.url, { id: ++id, method, params }, capabilities);
  return { status, message: message as { result?: Record<string, unknown>; error?: never } };
}

beforeAll(async () => {
  server = await startServer();
  server.registerTool(
    defineTool({
      name: 'survey',
      execute: async (_args, context) => {
        const [name, greeting, roots] = await Promise.all([
          context.elicit({ key: 'user_name', message: 'Name?', requestedSchema: { type: 'object', properties: {} } }),
          context.sample({ messages: [], maxTokens: 5 }, { key: 'greeting' }),
          context.listRoots({ key: 'client_roots' }),
        ]);
        const said = (greeting.content as { text: string }).text;
        return `${said} ${String(name.content?.name)}, ${roots.roots.length} root(s)`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'needs_sampling',
      execute: async (_args, context) => (await context.sample({ messages: [], maxTokens: 5 })).model,
    }),
  );
  server.registerTool(
    defineTool({
      name: 'two_steps',
      execute: async (_args, context) => {
        const first = await context.elicit({ message: 'First?', requestedSchema: { type: 'object', properties: {} } });
        const second = await context.elicit({
          message: 'Second?',
          requestedSchema: { type: 'object', properties: {} },
        });
        return `${first.action}/${second.action}`;
      },
    }),
  );
  server.registerPrompt({
    name: 'with_context',
    load: async (_args, context) => {
      const answer = await context.elicit({
        key: 'user_context',
        message: 'Context?',
        requestedSchema: { type: 'object', properties: { context: { type: 'string' } } },
      });
      return `Use ${String(answer.content?.context)}`;
    },
  });
});
afterAll(() => server?.stop());

describe('2026-07-28 input rounds over HTTP', () => {
  it('asks requests started together in one input_required result, under their keys', async () => {
    const first = await rpc('tools/call', { name: 'survey', arguments: {} });
    expect(first.message.result).toMatchObject({ resultType: 'input_required' });
    const requests = first.message.result?.inputRequests as Record<string, { method: string }>;
    expect(Object.keys(requests).sort()).toEqual(['client_roots', 'greeting', 'user_name']);
    expect(requests.client_roots?.method).toBe('roots/list');
    expect(requests.greeting?.method).toBe('sampling/createMessage');
    expect(requests.user_name?.method).toBe('elicitation/create');

    const done = await rpc('tools/call', {
      name: 'survey',
      arguments: {},
      inputResponses: { user_name: ACCEPT_NAME, greeting: SAMPLED, client_roots: ROOTS },
      requestState: first.message.result?.requestState,
    });
    expect(done.message.result?.content).toEqual([{ type: 'text', text: 'Hi Ada, 1 root(s)' }]);
  });

  it('asks again for an answer of the wrong shape, and accepts a named answer without requestState', async () => {
    const wrong = await rpc('tools/call', {
      name: 'survey',
      arguments: {},
      inputResponses: { user_name: { action: 'maybe' }, greeting: SAMPLED, client_roots: { roots: 'none' } },
    });
    const requests = wrong.message.result?.inputRequests as Record<string, unknown>;
    expect(Object.keys(requests).sort()).toEqual(['client_roots', 'user_name']);

    const direct = await rpc('tools/call', {
      name: 'survey',
      arguments: {},
      inputResponses: { user_name: ACCEPT_NAME, greeting: SAMPLED, client_roots: ROOTS, extra: { action: 'accept' } },
    });
    expect(direct.message.result?.content).toEqual([{ type: 'text', text: 'Hi Ada, 1 root(s)' }]);
  });

  it('carries earlier answers in requestState across rounds (default keys elicit-1, elicit-2)', async () => {
    const round1 = await rpc('tools/call', { name: 'two_steps', arguments: {} });
    expect(Object.keys(round1.message.result?.inputRequests as object)).toEqual(['elicit-1']);
    const round2 = await rpc('tools/call', {
      name: 'two_steps',
      arguments: {},
      inputResponses: { 'elicit-1': { action: 'accept', content: {} } },
      requestState: round1.message.result?.requestState,
    });
    expect(Object.keys(round2.message.result?.inputRequests as object)).toEqual(['elicit-2']);
    expect(round2.message.result?.requestState).not.toBe(round1.message.result?.requestState);
    const round3 = await rpc('tools/call', {
      name: 'two_steps',
      arguments: {},
      inputResponses: { 'elicit-2': { action: 'decline' } },
      requestState: round2.message.result?.requestState,
    });
    expect(round3.message.result?.content).toEqual([{ type: 'text', text: 'accept/decline' }]);
  });

  it('answers -32021 with HTTP 400 naming the capability the client did not declare', async () => {
    const { status, message } = await rpc('tools/call', { name: 'needs_sampling', arguments: {} }, { elicitation: {} });
    expect(status).toBe(400);
    expect(message.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it('runs prompts/get in rounds too (elicit from a prompt)', async () => {
    const first = await rpc('prompts/get', { name: 'with_context' });
    expect(first.message.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_context: { method: 'elicitation/create' } },
    });
    const done = await rpc('prompts/get', {
      name: 'with_context',
      inputResponses: { user_context: { action: 'accept', content: { context: 'tests' } } },
      requestState: first.message.result?.requestState,
    });
    expect(done.message.result?.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Use tests' } }]);
  });
});

describe('2026-07-28 Mcp-Param-* headers over HTTP', () => {
  it('refuses a tools/call whose x-mcp-header header disagrees with the body (400, -32020), serves one that agrees', async () => {
    server.registerTool(
      defineTool({
        name: 'routed',
        inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
        execute: (args) => `ran in ${String((args as { region?: string }).region)}`,
      }),
    );
    const call = (headers: Record<string, string>) =>
      post(
        server.address.url,
        {
          jsonrpc: '2.0',
          id: 77,
          method: 'tools/call',
          params: {
            name: 'routed',
            arguments: { region: 'eu' },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'routed', ...headers },
      );
    const refused: Record<string, string>[] = [
      {},
      { 'Mcp-Param-Region': 'us' },
      { 'Mcp-Param-Region': '=?base64?ZX?=' },
    ];
    for (const headers of refused) {
      const response = await call(headers);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ id: 77, error: { code: -32020 } });
    }
    const ok = await call({ 'Mcp-Param-Region': `=?base64?${Buffer.from('eu').toString('base64')}?=` });
    expect(ok.status).toBe(200);
    const [message] = await messages(ok);
    expect(message?.result).toMatchObject({ content: [{ type: 'text', text: 'ran in eu' }] });
  });
});
