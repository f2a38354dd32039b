import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { Tool } from '../../src/registry/tool.js';
import { connectClient } from '../support/clients.js';
import { startServer, until } from './http-helpers.js';

class CounterTool extends Tool<Record<string, never>> {
  count = 0;
  disposed = 0;
  constructor() {
    super({ name: 'counter' });
  }
  execute() {
    this.count += 1;
    return String(this.count);
  }
  dispose() {
    this.disposed += 1;
  }
}

describe('per-session tools over legacy HTTP sessions', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('each session gets its own instance, disposed exactly once when the session ends', async () => {
    const made: CounterTool[] = [];
    server = await startServer({
      sessionTools: () => {
        const tool = new CounterTool();
        made.push(tool);
        return [tool];
      },
    });
    const url = new URL(server.address.url);
    const a = await connectClient('v1', new HttpV1(url));
    const b = await connectClient('v1', new HttpV1(url));
    expect((await a.callTool('counter', {})).content[0]?.text).toBe('1');
    expect((await a.callTool('counter', {})).content[0]?.text).toBe('2');
    expect((await b.callTool('counter', {})).content[0]?.text).toBe('1');
    expect(made).toHaveLength(2);

    const closed = server.sessionCount;
    await server.closeSession(server.listSessions()[0]!.id);
    await until(() => made.filter((tool) => tool.disposed === 1).length === 1, 'one session disposed');
    expect(server.sessionCount).toBe(closed - 1);
    await a.close().catch(() => {});
    await b.close().catch(() => {});
    await server.stop();
    await until(() => made.every((tool) => tool.disposed === 1), 'every instance disposed once');
  });
});
