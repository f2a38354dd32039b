import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/registry/tool.js';
import { InMemoryServer } from '../support/in-memory.js';
import { askTool, protocolErrorTool, sleep, slowTool } from './task-tools.js';

function server() {
  const s = new InMemoryServer();
  s.registerTool(slowTool());
  s.registerTool(defineTool({ name: 'plain', execute: () => 'plain' }));
  s.registerTool(protocolErrorTool('must', 'required', 'boom'));
  s.registerTool(askTool());
  return s;
}

async function connectV1(s: InMemoryServer) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  (s as unknown as { handles?: unknown }).handles = serveStdio((ctx) => s['createFreshMcpServer'](ctx), {
    transport: serverSide,
  });
  const client = new V1Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
  await client.connect(clientSide as never);
  return client;
}

describe('2025-11-25 tasks with the v1 client (in memory)', () => {
  let s: InMemoryServer;
  afterEach(async () => s?.stop());

  it('answers a task-augmented call with a task, then the same result a direct call gives', async () => {
    s = server();
    const client = await connectV1(s);
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {} });
    const tools = await client.listTools();
    expect(tools.tools.find((t) => t.name === 'slow')?.execution).toEqual({ taskSupport: 'optional' });
    const created = await client.request(
      { method: 'tools/call', params: { name: 'slow', arguments: { ms: 300 }, task: { ttl: 60_000 } } },
      z.any() as never,
    );
    const task = (created as { task: { taskId: string; status: string; ttl: number } }).task;
    expect(task.status).toBe('working');
    expect(task.ttl).toBe(60_000);
    const got = await client.experimental.tasks.getTask(task.taskId);
    expect(got.status).toBe('working');
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'slept 300' }]);
    expect(result.structuredContent).toEqual({ ms: 300 });
    const direct = await client.callTool({ name: 'slow', arguments: { ms: 1 } });
    expect(direct.content).toEqual([{ type: 'text', text: 'slept 1' }]);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('completed');
  });

  it('streams a task to completion with callToolStream, elicitation included', async () => {
    s = server();
    const client = await connectV1(s);
    await client.listTools();
    const kinds: string[] = [];
    let final: unknown;
    for await (const message of client.experimental.tasks.callToolStream({ name: 'ask', arguments: {} })) {
      kinds.push(message.type);
      if (message.type === 'result') final = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(final).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
  });

  it("sends a task's sampling request on tasks/result and hands the answer to the tool", async () => {
    s = server();
    s.registerTool(
      defineTool({
        name: 'summarize',
        taskSupport: 'required',
        execute: async (_args, context) => {
          const reply = await context.sample({
            messages: [{ role: 'user', content: { type: 'text', text: 'Summarize.' } }],
            maxTokens: 20,
          });
          return `model said: ${reply.content.type === 'text' ? reply.content.text : '?'}`;
        },
      }),
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    (s as unknown as { handles?: unknown }).handles = serveStdio((ctx) => s['createFreshMcpServer'](ctx), {
      transport: serverSide,
    });
    const client = new V1Client({ name: 'v1', version: '1.0.0' }, { capabilities: { sampling: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request.params);
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'short' } };
    });
    await client.connect(clientSide as never);
    await client.listTools(); // callToolStream reads each tool's taskSupport from the listing
    let final: unknown;
    for await (const message of client.experimental.tasks.callToolStream({ name: 'summarize', arguments: {} })) {
      if (message.type === 'result') final = message.result;
      if (message.type === 'error') throw message.error;
    }
    expect(final).toMatchObject({ content: [{ type: 'text', text: 'model said: short' }] });
    expect(asked).toEqual([
      expect.objectContaining({
        maxTokens: 20,
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarize.' } }],
        _meta: { 'io.modelcontextprotocol/related-task': { taskId: expect.any(String) } },
      }),
    ]);
  });

  it('cancels, fails on a protocol error, and refuses bad task params', async () => {
    s = server();
    const client = await connectV1(s);
    const call = (name: string, args: Record<string, unknown>, task?: unknown) =>
      client.request(
        { method: 'tools/call', params: { name, arguments: args, ...(task !== undefined && { task }) } },
        z.any() as never,
      ) as Promise<{ task: { taskId: string } }>;
    const { task } = await call('slow', { ms: 10_000 }, {});
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe('cancelled');
    await expect(client.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    const failed = await call('must', {}, {});
    await sleep(50);
    expect((await client.experimental.tasks.getTask(failed.task.taskId)).status).toBe('failed');
    await expect(call('plain', {}, {})).rejects.toMatchObject({ code: -32601 });
    await expect(call('must', {})).rejects.toMatchObject({ code: -32601 });
    await expect(client.experimental.tasks.getTask('nope')).rejects.toMatchObject({ code: -32602 });
    await expect(call('slow', { ms: 1 }, 'x')).rejects.toMatchObject({ code: -32602 });
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(task.taskId);
  });

  it('lists 1,000 tasks of one client page by page, and refuses a forged cursor', async () => {
    s = new InMemoryServer(undefined, { tasks: { maxTasksPerPrincipal: 2000 } });
    s.registerTool(defineTool({ name: 'quick', taskSupport: 'optional', execute: () => 'done' }));
    const client = await connectV1(s);
    const created = new Set<string>();
    for (let batch = 0; batch < 10; batch++) {
      const calls = Array.from({ length: 100 }, () =>
        client.request({ method: 'tools/call', params: { name: 'quick', arguments: {}, task: {} } }, z.any() as never),
      );
      for (const answer of await Promise.all(calls)) created.add((answer as { task: { taskId: string } }).task.taskId);
    }
    const listed: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.experimental.tasks.listTasks(cursor);
      listed.push(...page.tasks.map((task) => task.taskId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    expect(pages).toBe(10);
    expect(listed).toHaveLength(1000);
    expect(new Set(listed)).toEqual(created);
    await expect(client.experimental.tasks.listTasks('forged')).rejects.toMatchObject({ code: -32602 });
  });
});
