// The settings API's statistics count a 2026-07-28 call answered over input rounds (`input_required`,
// then the client's retries with the answers) as ONE call, as the handshake era's single request is.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { call, startAdminServer } from './admin-harness.js';

let server: HttpMcpServer;
let admin: string;
let mcp: string;

beforeAll(async () => {
  ({ server, admin, mcp } = await startAdminServer());
  server.registerTool(
    defineTool({
      name: 'two_questions',
      execute: async (_args, context) => {
        const schema = { type: 'object' as const, properties: {} };
        const first = await context.elicit({ message: 'First?', requestedSchema: schema });
        const second = await context.elicit({ message: 'Second?', requestedSchema: schema });
        return `${first.action}/${second.action}`;
      },
    }),
  );
});
afterAll(() => server?.stop());

describe('admin statistics of multi-round calls', () => {
  it.each([['2026-07-28', { pin: '2026-07-28' }] as const, ['handshake', 'legacy'] as const])(
    'a %s call that asks twice counts once',
    async (_era, mode) => {
      const before = (await call(admin, 'stats')).body.tools.two_questions.count as number;
      const client = new Client(
        { name: 'rounds', version: '1' },
        { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
      );
      const asked: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: {} };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(mcp)));
      const result = await client.callTool({ name: 'two_questions', arguments: {} });
      await client.close();
      expect(result.content).toEqual([{ type: 'text', text: 'accept/accept' }]);
      expect(asked).toEqual(['First?', 'Second?']);
      const stats = (await call(admin, 'stats')).body;
      expect(stats.tools.two_questions.count).toBe(before + 1);
      expect(stats.tools.two_questions.errors).toBe(0);
    },
  );
});
