// 2025-11-25 tasks driven by the v1 SDK client the way today's clients run servers: over a real
// stdio child process and over real HTTP (legacy sessions, bearer auth). Needs `npm run build` (the stdio fixture imports dist/).
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { startServer } from '../e2e/http-helpers.js';
import { sleep, slowTool } from './task-tools.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/tasks-stdio-fixture.mjs', import.meta.url));
const AnyResult = z.looseObject({});

function v1Client(): Client {
  const client = new Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
  return client;
}

async function createTask(client: Client, name: string, args: Record<string, unknown>) {
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: args, task: { ttl: 120_000 } } },
    AnyResult,
  );
  return (created as unknown as { task: { taskId: string; status: string; ttl: number } }).task;
}

let closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  closers = [];
});

describe('v1 client over stdio (child process)', () => {
  it('runs a 3 s tool as a task: handle at once, working with progress, then the direct-call result', async () => {
    const client = v1Client();
    const statuses: string[] = [];
    client.setNotificationHandler(
      z.object({ method: z.literal('notifications/tasks/status'), params: z.looseObject({ status: z.string() }) }),
      (notification) => void statuses.push(notification.params.status),
    );
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' }));
    closers.push(() => client.close());
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } } });

    const started = Date.now();
    const task = await createTask(client, 'slow', { ms: 3000 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(task).toMatchObject({ status: 'working', ttl: 120_000 });
    await sleep(100);
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({
      status: 'working',
      statusMessage: 'half way',
    });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    const direct = await client.callTool({ name: 'slow', arguments: { ms: 3000 } });
    const { _meta, ...fromTask } = result;
    expect(fromTask).toEqual(direct);
    expect(_meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId: task.taskId });
    expect(statuses).toContain('completed');
  }, 20_000);

  it('round-trips an elicitation inside a task, and cancels another', async () => {
    const client = v1Client();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' }));
    closers.push(() => client.close());
    await client.listTools();
    let final: unknown;
    for await (const message of client.experimental.tasks.callToolStream({ name: 'ask', arguments: {} })) {
      if (message.type === 'result') final = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(final).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
    const long = await createTask(client, 'slow', { ms: 60_000 });
    expect((await client.experimental.tasks.cancelTask(long.taskId)).status).toBe('cancelled');
    expect((await client.experimental.tasks.getTask(long.taskId)).status).toBe('cancelled');
  }, 20_000);
});

describe('v1 client over HTTP (legacy sessions, bearer auth)', () => {
  let server: HttpMcpServer;

  async function connect(token: string) {
    const client = v1Client();
    const transport = new StreamableHTTPClientTransport(new URL(server.address.url), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    closers.push(() => client.close());
    return { client, transport };
  }

  it('keeps a task running after its session ends; a new session of the same client fetches the result', async () => {
    server = await startServer({
      authenticate: (req) => {
        const token = req.headers.authorization?.replace(/^Bearer /, '');
        return token ? { token, clientId: token, scopes: [] } : undefined;
      },
    });
    closers.push(() => server.stop());
    server.registerTool(slowTool());
    const first = await connect('alice');
    const task = await createTask(first.client, 'slow', { ms: 4000 });
    await first.transport.terminateSession();
    await first.client.close();

    const other = await connect('mallory');
    await expect(other.client.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(other.client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    expect((await other.client.experimental.tasks.listTasks()).tasks).toEqual([]);

    const second = await connect('alice');
    expect((await second.client.experimental.tasks.getTask(task.taskId)).status).toBe('working');
    const result = await second.client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'slept 4000' }]);
  }, 20_000);
});
