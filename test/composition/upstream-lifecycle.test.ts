// Upstream lifecycle edges: closing an upstream whose child never answers stops that child at once;
// mount cycles are refused.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HttpMcpServer, defineTool } from '../../dist/index.js';
import { UpstreamError } from '../../dist/public/composition.js';
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
  it('close() while the first connection attempt is still waiting stops the silent child and rejects whenConnected()', async () => {
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
    await expect(waiting).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: /was closed before it connected/,
    });
    expect(silent.status.state).toBe('closed');
    await expect(silent.whenConnected()).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'silent' });
    await until(() => childrenWith(marker).length === 0, 'the silent child to be stopped', 8_000);
    await server.stop();
  }, 20_000);

  it('whenConnected({ timeoutMs }) rejects with UPSTREAM_UNAVAILABLE naming the state and last error of an upstream that cannot start', async () => {
    const server = new HttpMcpServer({ name: 'gw', version: '1' }, { port: 0, logger: recordingLogger([]) });
    const broken = server.addUpstream({
      name: 'broken',
      command: process.execPath,
      args: ['-e', `process.stderr.write('cannot open the database'); process.exit(3)`],
      env: { DB_PASSWORD: 'hunter2-secret' },
      backoff: { initialMs: 50, maxMs: 100 },
    });
    // A loaded machine may take longer than the timeout to spawn the child: wait for its first failure.
    await until(() => broken.status.failures >= 1, 'the first failed attempt', 15_000);
    const started = Date.now();
    const error = await broken.whenConnected({ timeoutMs: 1_500 }).catch((caught: unknown) => caught);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      upstream: 'broken',
      message: expect.stringMatching(
        /^Upstream "broken" did not connect within 1500 ms \((connecting|retrying), \d+ failed attempts?; last error: .*cannot open the database/,
      ),
    });
    expect((error as Error).message).not.toContain('hunter2');
    // A bad option is refused, not waited on.
    await expect(broken.whenConnected({ timeoutMs: -1 })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await expect(broken.whenConnected({ timeOutMs: 5 } as never)).rejects.toThrow(/did you mean "timeoutMs"/);
    await expect(broken.whenConnected(null as never)).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    await server.stop();
  }, 30_000);

  it('mount cycles are refused with MOUNT_CYCLE: itself, a server that mounts it, and longer rings', () => {
    const make = (name: string) => {
      const server = new HttpMcpServer({ name, version: '1' }, { port: 0, logger: recordingLogger([]) });
      server.registerTool(defineTool({ name: 't', execute: () => name }));
      return server;
    };
    const [a, b, c] = [make('a'), make('b'), make('c')];
    expect(() => a.mount(a, { namespace: 'self' })).toThrow(expect.objectContaining({ code: 'MOUNT_CYCLE' }));
    a.mount(b, { namespace: 'b' });
    expect(() => b.mount(a, { namespace: 'a' })).toThrow(/"a" mounts this server \(b -> a -> b\)/);
    b.mount(c, { namespace: 'c' });
    let ring: unknown;
    try {
      c.mount(a, { namespace: 'a' });
    } catch (error) {
      ring = error;
    }
    expect(ring).toBeInstanceOf(UpstreamError);
    expect(ring).toMatchObject({ code: 'MOUNT_CYCLE', message: expect.stringContaining('c -> a -> b -> c') });
    // Nothing was left half-mounted: the namespaces are free and the tools are as before.
    expect(c.getToolStates().map((state) => state.tool.name)).toEqual(['t']);
    expect(a.getToolStates().map((state) => state.tool.name)).toEqual(['t', 'b_t', 'b_c_t']);
    expect(b.getToolStates().map((state) => state.tool.name)).toEqual(['t', 'c_t']);
    a.mount(c, { namespace: 'c' }); // a -> c is no cycle (c mounts nothing)
    expect(a.getToolStates().map((state) => state.tool.name)).toContain('c_t');
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
