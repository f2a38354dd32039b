// Two upstreams whose namespaces make the same tool name (`a` + `b_c`, `a_b` + `c`: both `a_b_c`): the
// second is refused that tool loudly (an error naming both upstreams and the tool, and its status),
// never silently shadowed, and takes it when the holder leaves; a local tool's name wins the same way.
import { afterAll, describe, expect, it } from 'vitest';
import { HttpMcpServer, defineTool } from '../../dist/index.js';
import { connectGatewayClient, recordingLogger, until } from './gateway-clients.js';

async function serving(name: string, tool: string): Promise<HttpMcpServer> {
  const server = new HttpMcpServer({ name, version: '1' }, { port: 0, logger: recordingLogger([]) });
  server.registerTool(defineTool({ name: tool, execute: () => `from ${name}` }));
  await server.start();
  return server;
}

describe('tool names made twice by two upstreams', () => {
  const started: HttpMcpServer[] = [];
  afterAll(async () => {
    for (const server of started.reverse()) await server.stop();
  });

  it('the second is left out with an error naming both, shown in its status; a local name wins too', async () => {
    const [a, ab] = [await serving('a', 'b_c'), await serving('a_b', 'c')];
    const local = await serving('x', 'only');
    started.push(a, ab, local);
    const lines: string[] = [];
    const gateway = new HttpMcpServer({ name: 'gw', version: '1' }, { port: 0, logger: recordingLogger(lines) });
    started.push(gateway);
    gateway.registerTool(defineTool({ name: 'x_only', execute: () => 'local' }));
    const first = gateway.addUpstream({ name: 'a', url: a.address.url });
    await first.whenConnected({ timeoutMs: 10_000 });
    const second = gateway.addUpstream({ name: 'a_b', url: ab.address.url });
    const third = gateway.addUpstream({ name: 'x', url: local.address.url });
    await Promise.all([second.whenConnected({ timeoutMs: 10_000 }), third.whenConnected({ timeoutMs: 10_000 })]);

    expect(gateway.getToolStates().map((state) => [state.tool.name, state.packageName ?? null])).toEqual([
      ['x_only', null],
      ['a_b_c', 'a'],
    ]);
    expect(first.status.nameConflicts).toEqual([]);
    expect(second.status.nameConflicts).toEqual([{ name: 'a_b_c', heldBy: 'a' }]);
    expect(third.status.nameConflicts).toEqual([{ name: 'x_only', heldBy: null }]);
    const errors = lines.filter((line) => line.startsWith('error '));
    expect(errors).toEqual([
      expect.stringContaining('tool \\"a_b_c\\" of \\"a_b\\" left out: \\"a\\" already has that name'),
      expect.stringContaining('tool \\"x_only\\" of \\"x\\" left out: a local tool already has that name'),
    ]);
    await gateway.start();
    const client = await connectGatewayClient('v2-legacy', gateway.address.url);
    expect((await client.call('a_b_c')).content).toEqual([{ type: 'text', text: 'from a' }]);
    // Once the holder leaves, the other upstream's tool takes the name (one change) and its status clears.
    await first.close();
    await until(() => second.status.nameConflicts.length === 0, 'a_b to take a_b_c');
    expect(gateway.getToolStates().find((state) => state.tool.name === 'a_b_c')?.packageName).toBe('a_b');
    expect((await client.call('a_b_c')).content).toEqual([{ type: 'text', text: 'from a_b' }]);
    await client.close();
  }, 30_000);
});
