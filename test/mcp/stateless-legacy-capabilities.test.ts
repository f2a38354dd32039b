// A handshake-era (2025-11-25) client served without a session, by toFetchHandler or by
// HttpMcpServer with `stateless`, is told no listChanged / subscribe: no stream outlives its POST,
// so no such notification could reach it. A client with a session (and 2026-07-28 clients, through
// subscriptions/listen) still gets them.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { FetchMcpServer, toFetchHandler } from '../../src/mcp/fetch-server.js';

const INFO = { name: 'caps-test', version: '1.0.0' };
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.allSettled(cleanup.splice(0).map((close) => close()));
});

async function capabilitiesOver(url: URL, fetch?: typeof globalThis.fetch) {
  const client = new Client({ name: 'v1-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, fetch ? { fetch } : {}));
  cleanup.push(() => client.close());
  return client.getServerCapabilities();
}

describe('capabilities offered to a stateless handshake-era client (v1 SDK client)', () => {
  it('toFetchHandler promises no listChanged or subscribe', async () => {
    const server = new FetchMcpServer(INFO);
    cleanup.push(() => server.stop());
    const handler = toFetchHandler(server);
    const fetch = ((input: string | URL | Request, init?: RequestInit) =>
      handler(new Request(input, init))) as typeof globalThis.fetch;
    const capabilities = await capabilitiesOver(new URL('http://127.0.0.1:8787/mcp'), fetch);
    expect(capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {}, completions: {}, logging: {} });
    expect(capabilities?.tools?.listChanged).toBeUndefined();
    expect(capabilities?.prompts?.listChanged).toBeUndefined();
    expect(capabilities?.resources).toEqual({});
  });

  it('HttpMcpServer stateless does the same; with sessions the notifications are promised', async () => {
    const stateless = new HttpMcpServer(INFO, { port: 0, stateless: true });
    const sessions = new HttpMcpServer(INFO, { port: 0 });
    for (const server of [stateless, sessions]) {
      await server.start();
      cleanup.push(() => server.stop());
    }
    const without = await capabilitiesOver(new URL(`${stateless.address.url}`));
    expect(without?.tools?.listChanged).toBeUndefined();
    expect(without?.resources).toEqual({});
    const withSession = await capabilitiesOver(new URL(`${sessions.address.url}`));
    expect(withSession).toMatchObject({
      tools: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      prompts: { listChanged: true },
    });
  });
});
