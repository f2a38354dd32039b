// #24 item 11: a tool error never carries a structuredContent that breaks the tool's own
// outputSchema. The v1 SDK client validates structuredContent even on isError results and throws
// instead of showing the error; driven here over real HTTP (legacy session), directly and as a task.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { startServer } from '../e2e/http-helpers.js';

const outputSchema = z.object({ id: z.number(), title: z.string() });

/** Returns a tool error whose structuredContent is `structured` (a mismatch unless it fits the schema). */
function failing(name: string, structured: unknown, taskSupport?: 'optional') {
  return defineTool({
    name,
    outputSchema,
    ...(taskSupport && { taskSupport }),
    execute: () => ({
      content: [{ type: 'text' as const, text: 'No book with that id.' }],
      structuredContent: structured as Record<string, unknown>,
      isError: true,
    }),
  });
}

let server: HttpMcpServer;
let client: Client;
beforeAll(async () => {
  server = await startServer();
  server.registerTool(failing('mismatched', { reason: 'not found', code: 404 }));
  server.registerTool(failing('matching', { id: 7, title: 'unknown' }));
  server.registerTool(failing('mismatched_task', { reason: 'not found' }, 'optional'));
  server.registerTool(
    defineTool({
      name: 'throws',
      outputSchema,
      execute: () => {
        throw new Error('the catalogue is offline');
      },
    }),
  );
  client = new Client({ name: 'v1', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.address.url)));
  await client.listTools(); // the v1 client caches each tool's output validator from the listing
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe('tool errors and the output schema, v1 SDK client (#24 item 11)', () => {
  it('an error whose structuredContent breaks the schema reaches the client as an error, without it', async () => {
    const result = await client.callTool({ name: 'mismatched', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'No book with that id.' }]);
    expect(result).not.toHaveProperty('structuredContent');
  });

  it('an error whose structuredContent fits the schema keeps it', async () => {
    const result = await client.callTool({ name: 'matching', arguments: {} });
    expect(result).toMatchObject({ isError: true, structuredContent: { id: 7, title: 'unknown' } });
  });

  it('a thrown error is an isError result the client shows', async () => {
    const result = await client.callTool({ name: 'throws', arguments: {} });
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result.content)).toContain('the catalogue is offline');
  });

  it('the same holds for a task result (tasks/result)', async () => {
    const created = (await client.request(
      { method: 'tools/call', params: { name: 'mismatched_task', arguments: {}, task: { ttl: 60_000 } } },
      z.looseObject({}),
    )) as unknown as { task: { taskId: string } };
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(result).not.toHaveProperty('structuredContent');
  });
});
