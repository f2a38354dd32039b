// #24 item 13: an elicitation answer that does not match requestedSchema counts as no answer, on
// both eras the same way: the tool never sees it, the request is asked again. Driven with the v2
// client in the 2026-07-28 era and the legacy era, and with tasks/update over real HTTP.
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { postModern, startServer } from '../e2e/http-helpers.js';
import { clientOptions, InMemoryServer } from '../support/in-memory.js';

const ZOD_SCHEMA = z.object({ confirm: z.boolean(), age: z.number().int().min(0) });
const JSON_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const }, age: { type: 'integer' as const, minimum: 0 } },
  required: ['confirm', 'age'],
};
const WRONG = [{ confirm: 'yes' }, {}, { age: -5 }];
const RIGHT = { confirm: true, age: 30 };

function confirmTool(requestedSchema: typeof ZOD_SCHEMA | typeof JSON_SCHEMA, taskSupport?: 'required') {
  return defineTool({
    name: 'confirm',
    ...(taskSupport && { taskSupport }),
    execute: async (_args, context) => {
      const answer = await context.elicit({ key: 'ok', message: 'Sure? How old?', requestedSchema });
      return `${answer.action} ${JSON.stringify(answer.content ?? null)}`;
    },
  });
}

const text = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

let server: InMemoryServer | HttpMcpServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Serves the confirm tool in-memory to a v2 client of `era` whose elicitation handler is `answer(n)` (n from 0). */
async function connectAnswering(
  era: 'legacy' | 'modern',
  answer: (asked: number) => Record<string, unknown>,
  schema: typeof ZOD_SCHEMA | typeof JSON_SCHEMA = ZOD_SCHEMA,
) {
  const local = new InMemoryServer();
  server = local;
  local.registerTool(confirmTool(schema));
  await local.start();
  const client = new Client({ name: 'unit', version: '1' }, clientOptions(era, { capabilities: { elicitation: {} } }));
  const counter = { asked: 0 };
  client.setRequestHandler('elicitation/create', async () => answer(counter.asked++) as never);
  await local.connect(era, client);
  return { client, counter };
}

describe.each(['legacy', 'modern'] as const)('elicitation answers are checked on the %s era (#24 item 13)', (era) => {
  it.each([
    ['zod', ZOD_SCHEMA],
    ['JSON Schema', JSON_SCHEMA],
  ] as const)(
    'wrong-shaped accepted answers (%s schema) are asked again; the tool sees only a valid one',
    async (_n, schema) => {
      const answers = [...WRONG, RIGHT];
      const { client, counter } = await connectAnswering(
        era,
        (n) => ({ action: 'accept', content: answers[n] }),
        schema,
      );
      const result = await client.callTool({ name: 'confirm', arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(text(result)).toBe(`accept ${JSON.stringify(RIGHT)}`);
      expect(counter.asked).toBe(4);
      await client.close();
    },
  );

  it('decline and cancel count as answers without content', async () => {
    const { client } = await connectAnswering(era, () => ({ action: 'decline' }));
    expect(text(await client.callTool({ name: 'confirm', arguments: {} }))).toBe('decline null');
    await client.close();
  });
});

it('legacy era: a client that never answers right is asked 10 times, then the tool gets a clear error', async () => {
  const { client, counter } = await connectAnswering('legacy', () => ({ action: 'accept', content: {} }));
  const result = await client.callTool({ name: 'confirm', arguments: {} });
  expect(result.isError).toBe(true);
  expect(text(result)).toMatch(/answered input request "ok" 10 times .*does not match requestedSchema.*confirm/);
  expect(counter.asked).toBe(10);
  await client.close();
});

describe('inside a task answered with tasks/update (2026-07-28, real HTTP)', () => {
  const CAPS = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
  let id = 0;

  it('a wrong answer leaves the task asking the same request; the right one completes it', async () => {
    const http = await startServer();
    server = http;
    http.registerTool(confirmTool(ZOD_SCHEMA, 'required'));
    const rpc = async (method: string, params: Record<string, unknown>) =>
      (await postModern(http.address.url, { id: ++id, method, params }, CAPS)).message as {
        result?: Record<string, unknown>;
        error?: unknown;
      };
    const waitFor = async (taskId: string, status: string) => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const task = (await rpc('tasks/get', { taskId })).result!;
        if (task.status === status) return task;
        if (Date.now() > deadline) throw new Error(`task never ${status}: ${JSON.stringify(task)}`);
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    };
    const created = await rpc('tools/call', { name: 'confirm', arguments: {} });
    const taskId = created.result!.taskId as string;
    for (const wrong of WRONG) {
      const asking = await waitFor(taskId, 'input_required');
      expect(asking.inputRequests).toHaveProperty('ok');
      const ack = await rpc('tasks/update', { taskId, inputResponses: { ok: { action: 'accept', content: wrong } } });
      expect(ack.error).toBeUndefined();
      // Given time to (wrongly) finish, the task must be asking again instead.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await rpc('tasks/get', { taskId })).result!.status).toBe('input_required');
    }
    await rpc('tasks/update', { taskId, inputResponses: { ok: { action: 'accept', content: RIGHT } } });
    const done = await waitFor(taskId, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: `accept ${JSON.stringify(RIGHT)}` }] });
  });
});
