// server.mount(): an in-process server (or a package) under a namespace, followed live.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpMcpServer, ToolPackage, defineTool } from '../../dist/index.js';
import { UpstreamError } from '../../dist/public/composition.js';
import { connectInMemory } from '../../dist/testing/index.js';
import { Counter, quiet } from './gateway-clients.js';

const quietLogger = () => {
  const noop = () => {};
  const logger = { debug: noop, info: noop, warn: noop, error: noop, child: () => logger };
  return logger as never;
};
const add = defineTool({
  name: 'add',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }, context) => {
    await context.reportProgress({ progress: 1, total: 1 });
    return String(a + b);
  },
});

describe('mount(): another server under a namespace', () => {
  let parent: HttpMcpServer;
  let child: HttpMcpServer;
  let connections: Array<Awaited<ReturnType<typeof connectInMemory>>> = [];
  let counters: Counter[] = [];

  beforeEach(async () => {
    parent = new HttpMcpServer({ name: 'parent', version: '1' }, { port: 0, logger: quietLogger() });
    child = new HttpMcpServer({ name: 'child', version: '1' }, { port: 0, logger: quietLogger() });
    parent.registerTool(defineTool({ name: 'local', execute: () => 'local' }));
    child.registerTool(add);
    parent.mount(child, { namespace: 'math' });
    connections = await Promise.all([connectInMemory(parent), connectInMemory(parent, { era: '2026-07-28' })]);
    counters = connections.map(({ client }) => {
      const counter = new Counter();
      client.setNotificationHandler('notifications/tools/list_changed', async () => counter.bump());
      return counter;
    });
    await connections[1]!.client.listen({ toolsListChanged: true });
  });

  afterEach(async () => {
    await Promise.allSettled(connections.map((connection) => connection.close()));
    await parent.stop();
    await child.stop();
  });

  const names = async (index: number) =>
    (await connections[index]!.client.listTools()).tools.map((tool: { name: string }) => tool.name);
  const toldOnceMore = async (before: number[]) => {
    await Promise.all(counters.map((counter, i) => counter.waitFor(before[i]! + 1)));
    await quiet(200);
    expect(counters.map((counter) => counter.count)).toEqual(before.map((count) => count + 1));
  };

  it("lists the child's tools as <namespace>_<tool> and runs them with the caller's context", async () => {
    for (const index of [0, 1]) {
      expect(await names(index)).toEqual(['local', 'math_add']);
      const progress: number[] = [];
      const result = await connections[index]!.client.callTool(
        { name: 'math_add', arguments: { a: 2, b: 3 } },
        { onprogress: (p: { progress: number }) => progress.push(p.progress) },
      );
      expect(result.content).toEqual([{ type: 'text', text: '5' }]);
      expect(progress).toEqual([1]);
      const invalid = await connections[index]!.client.callTool({ name: 'math_add', arguments: { a: 'x' } });
      expect(invalid.isError).toBe(true);
    }
    expect(parent.getToolStates().find((state) => state.tool.name === 'math_add')?.packageName).toBe('math');
  });

  it("follows the child's registrations, removals and toggles: each is one change for every client", async () => {
    let before = counters.map((counter) => counter.count);
    child.registerTool(defineTool({ name: 'mul', execute: () => 'mul' }));
    await toldOnceMore(before);
    expect(await names(0)).toEqual(['local', 'math_add', 'math_mul']);

    before = counters.map((counter) => counter.count);
    child.disableTool('add');
    await toldOnceMore(before);
    expect(await names(1)).toEqual(['local', 'math_mul']);

    before = counters.map((counter) => counter.count);
    child.enableTool('add');
    await toldOnceMore(before);
    expect(await names(1)).toEqual(['local', 'math_mul', 'math_add']);

    before = counters.map((counter) => counter.count);
    child.removeTool('mul');
    await toldOnceMore(before);
    expect(await names(0)).toEqual(['local', 'math_add']);
  });

  it("the parent's own toggles of a mounted tool leave the child alone", async () => {
    const before = counters.map((counter) => counter.count);
    parent.disableTool('math_add');
    await toldOnceMore(before);
    expect(await names(0)).toEqual(['local']);
    expect(child.tools.isEnabled('add')).toBe(true);
    child.registerTool(defineTool({ name: 'other', execute: () => 'x' }));
    await quiet(100);
    expect(await names(0)).toEqual(['local', 'math_other']); // still disabled here
  });

  it('mounts a package once, refuses a taken or invalid namespace, and unmounts in one change', async () => {
    const handle = parent.mount(new ToolPackage([defineTool({ name: 'x', execute: () => 'x' })]), { namespace: 'pkg' });
    expect(handle.tools()).toEqual(['pkg_x']);
    expect(() => parent.mount(child, { namespace: 'math' })).toThrow(UpstreamError);
    expect(() => parent.mount(child, { namespace: 'bad name' })).toThrow(/1-64 characters/);
    await quiet(100);
    const before = counters.map((counter) => counter.count);
    handle.unmount();
    await toldOnceMore(before);
    expect(await names(0)).toEqual(['local', 'math_add']);
  });
});
