import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { startServer, until } from './http-helpers.js';

describe('cancellation over legacy HTTP', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('a cancelled call ends its POST stream, so the session is not held busy', async () => {
    server = await startServer();
    let aborted = 0;
    server.registerTool(
      defineTool({
        name: 'forever',
        execute: (_args, context) => new Promise(() => context.signal.addEventListener('abort', () => (aborted += 1))),
      }),
    );
    const client = new Client({ name: 'cancel-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.address.url)));
    try {
      const busy = () => server!.listSessions()[0]?.openRequests ?? 0;
      await until(() => busy() === 1, "the client's GET stream is open");
      const baseline = busy();
      const calls = Array.from({ length: 3 }, () => {
        const controller = new AbortController();
        const call = client.callTool({ name: 'forever', arguments: {} }, undefined, { signal: controller.signal });
        call.catch(() => {});
        return { controller, call };
      });
      await until(() => busy() === baseline + 3, 'three calls in flight');
      for (const { controller } of calls) controller.abort('stop');
      await until(() => aborted === 3, 'every tool saw its signal abort');
      await until(() => busy() === baseline, 'the cancelled calls no longer hold the session');
      expect(busy()).toBe(baseline);
    } finally {
      await client.close();
    }
  });
});
