import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/registry/tool.js';
import { startServer } from './http-helpers.js';
import { InMemoryServer } from '../support/in-memory.js';

const forever = () =>
  defineTool({
    name: 'forever',
    execute: () => new Promise(() => {}),
  });

describe('stop() while a call is running', () => {
  it('answers the legacy HTTP client with an error instead of leaving it waiting', async () => {
    const server = await startServer();
    server.registerTool(forever());
    const client = new Client({ name: 'stop-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.address.url)));
    const call = client.callTool({ name: 'forever', arguments: {} });
    const failed = expect(call).rejects.toThrow(/shutting down/); // stop() waits until it is answered
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await server.stop();
    await failed;
    expect(Date.now() - started).toBeLessThan(3_000);
    await client.close().catch(() => {});
  });

  it('answers a stdio-style connection too', async () => {
    const server = new InMemoryServer();
    server.registerTool(forever());
    const client = await server.connect('legacy');
    const call = client.callTool({ name: 'forever', arguments: {} });
    const failed = expect(call).rejects.toThrow(/shutting down/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await server.stop();
    await failed;
  });
});
