import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StdioMcpServer, Tool, defineTool } from '../../src/index.js';
import { connectInMemory, type InMemoryConnection } from '../../src/testing/index.js';
import { silentLogger } from '../support/in-memory.js';

class Scratch extends Tool {
  disposed = 0;
  constructor() {
    super({ name: 'scratch' });
  }
  execute() {
    return 'scratch';
  }
  dispose() {
    this.disposed += 1;
  }
}

let server: StdioMcpServer;
let connection: InMemoryConnection | undefined;
afterEach(async () => {
  await connection?.close();
  await server?.stop();
});

describe.each(['legacy', '2026-07-28'] as const)('connectInMemory on the %s era', (era) => {
  it('connects an SDK client to a server that was never started, and closes cleanly', async () => {
    const sessions: Scratch[] = [];
    server = new StdioMcpServer(
      { name: 'app', version: '1.0.0' },
      { logger: silentLogger(), sessionTools: () => [sessions[sessions.push(new Scratch()) - 1]!] },
    );
    server.registerTool(
      defineTool({ name: 'greet', inputSchema: z.object({ name: z.string() }), execute: ({ name }) => `Hi ${name}` }),
    );
    connection = await connectInMemory(server, { era });
    const { client } = connection;
    expect(client.getServerVersion()?.name).toBe('app');
    expect(client.getNegotiatedProtocolVersion()).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Hi Ada' }]);
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['greet', 'scratch']);

    // Changes reach the client: unsolicited on legacy, on a listen stream on 2026-07-28.
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler('notifications/tools/list_changed', async () => resolve()),
    );
    if (era === '2026-07-28') await client.listen({ toolsListChanged: true });
    server.disableTool('greet');
    await changed;

    await connection.close();
    await connection.close(); // idempotent
    connection = undefined;
    expect(sessions.map((tool) => tool.disposed)).toEqual([1]); // the session's view closed
  });
});

it('rejects an object that is not a toolkit server', async () => {
  await expect(connectInMemory({} as never)).rejects.toThrow(TypeError);
});

it('a client changing its tools/list result does not change what other connections are sent', async () => {
  // The in-memory transport hands the response object itself to the client (found in review).
  server = new StdioMcpServer({ name: 'app', version: '1.0.0' }, { logger: silentLogger() });
  for (const name of ['b', 'a']) {
    server.registerTool(defineTool({ name, inputSchema: z.object({}), execute: () => name }));
  }
  const one = await connectInMemory(server);
  connection = await connectInMemory(server);
  try {
    const raw = (await one.client.request({ method: 'tools/list' }, z.any())) as { tools: Array<{ name: string }> };
    raw.tools.sort((x, y) => x.name.localeCompare(y.name));
    raw.tools.push({ name: 'ghost' });
    expect((await connection.client.listTools()).tools.map((tool) => tool.name)).toEqual(['b', 'a']);
  } finally {
    await one.close();
  }
});

describe.each(['legacy', '2026-07-28'] as const)('connectInMemory session events on the %s era', (era) => {
  /** Records the server's session events in order. */
  function recordSessions(target: StdioMcpServer) {
    const seen: Array<[string, Record<string, unknown>]> = [];
    target.events.on('sessionCreated', (info) => seen.push(['created', { ...info }]));
    target.events.on('sessionClosed', (info) => seen.push(['closed', { ...info }]));
    return seen;
  }

  it('emits sessionCreated on connect and one sessionClosed (closed) on close, like a stdio connection', async () => {
    server = new StdioMcpServer({ name: 'app', version: '1.0.0' }, { logger: silentLogger() });
    const seen = recordSessions(server);
    connection = await connectInMemory(server, { era });
    await connection.client.listTools(); // the view exists by now on both eras
    expect(seen).toEqual([['created', { transport: 'memory' }]]);
    await connection.close();
    await connection.close();
    connection = undefined;
    expect(seen).toEqual([
      ['created', { transport: 'memory' }],
      ['closed', { transport: 'memory', reason: 'closed' }],
    ]);
  });

  it('reports each connection, and shutdown when server.stop() ends them', async () => {
    server = new StdioMcpServer({ name: 'app', version: '1.0.0' }, { logger: silentLogger() });
    const seen = recordSessions(server);
    const first = await connectInMemory(server, { era });
    connection = await connectInMemory(server, { era });
    await Promise.all([first.client.listTools(), connection.client.listTools()]);
    await first.client.close(); // the SDK client's own close counts as the client leaving
    await server.stop();
    await connection.close(); // after the server ended it: nothing more to report
    connection = undefined;
    expect(seen).toEqual([
      ['created', { transport: 'memory' }],
      ['created', { transport: 'memory' }],
      ['closed', { transport: 'memory', reason: 'closed' }],
      ['closed', { transport: 'memory', reason: 'shutdown' }],
    ]);
  });
});
