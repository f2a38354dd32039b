// Upstream lifecycle edges: closing an upstream whose child never answers stops that child at once;
// a server that mounts itself does not mount its mounted tools again.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HttpMcpServer, defineTool } from '../../dist/index.js';
import { connectInMemory } from '../../dist/testing/index.js';
import { recordingLogger, until } from './gateway-clients.js';

/** Process ids of this process's children whose command line contains `marker`. */
function childrenWith(marker: string): number[] {
  const out = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .filter((line) => line.includes(marker))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

describe('upstream lifecycle', () => {
  it('close() while the first connection attempt is still waiting stops the silent child and resolves whenConnected()', async () => {
    const marker = `silent-upstream-${process.pid}`;
    const server = new HttpMcpServer({ name: 'gw', version: '1' }, { port: 0, logger: recordingLogger([]) });
    const silent = server.addUpstream({
      name: 'silent',
      command: process.execPath,
      args: ['-e', `setInterval(() => {}, 1000) /* ${marker} */`],
      connectTimeoutMs: 60_000,
    });
    const waiting = silent.whenConnected();
    await until(() => childrenWith(marker).length > 0, 'the silent child to start');
    expect(silent.status.state).toBe('connecting');
    await silent.close();
    await waiting; // resolved by close()
    expect(silent.status.state).toBe('closed');
    await until(() => childrenWith(marker).length === 0, 'the silent child to be stopped', 8_000);
    await server.stop();
  }, 20_000);

  it('a server mounting itself mounts its own tools once, not its mounted ones', () => {
    const server = new HttpMcpServer({ name: 'gw', version: '1' }, { port: 0, logger: recordingLogger([]) });
    server.registerTool(defineTool({ name: 'a', execute: () => 'a' }));
    server.mount(server, { namespace: 'self' });
    server.registerTool(defineTool({ name: 'b', execute: () => 'b' }));
    expect(server.getToolStates().map((state) => state.tool.name)).toEqual(['a', 'self_a', 'b', 'self_b']);
  });

  it('callTimeoutMs: a call with neither result nor progress for that long fails clearly and is cancelled upstream', async () => {
    const aborted: string[] = [];
    const upstream = new HttpMcpServer({ name: 'hang', version: '1' }, { port: 0, logger: recordingLogger([]) });
    upstream.registerTool(
      defineTool({
        name: 'hang',
        execute: (_args, context) =>
          new Promise((_resolve, reject) =>
            context.signal.addEventListener('abort', () => {
              aborted.push('aborted');
              reject(context.signal.reason);
            }),
          ),
      }),
    );
    await upstream.start();
    const gateway = new HttpMcpServer({ name: 'gw', version: '1' }, { port: 0, logger: recordingLogger([]) });
    const handle = gateway.addUpstream({ name: 'up', url: upstream.address.url, callTimeoutMs: 300 });
    await handle.whenConnected();
    const { client, close } = await connectInMemory(gateway);
    try {
      const result = await client.callTool({ name: 'up_hang', arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/did not answer the call to \\"hang\\" within 300 ms/);
      await until(() => aborted.length === 1, 'the upstream call to be cancelled');
      expect(handle.status.state).toBe('connected'); // a slow call is not a lost connection
    } finally {
      await close();
      await gateway.stop();
      await upstream.stop();
    }
  });
});
