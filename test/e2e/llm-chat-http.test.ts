import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import type { ResourceReadInfo, ToolCallInfo } from '../../src/mcp/server/observer.js';
import { CLIENT_KINDS, connectClient, type ClientKind, type TestClient } from '../support/clients.js';
import { CounterTool, FilesPackage, PlainPackage, ReadFilesTool, WeatherTool } from '../fixtures/llm-chat-tools.mjs';
import { startServer, until } from './http-helpers.js';

const texts = (result: { content: Array<{ text?: string }> }) => result.content.map((c) => c.text);
const connect = (kind: ClientKind, url: URL) => connectClient(kind, kind === 'v1' ? new HttpV1(url) : new HttpV2(url));

describe.each(CLIENT_KINDS)('llm-chat objects registered directly, over HTTP (%s client)', (kind) => {
  let server: HttpMcpServer | undefined;
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    await server?.stop();
    server = client = undefined;
  });

  it('serves an llm-chat ToolPackage as llm-chat-mcp did, with observer and content documents', async () => {
    const calls: ToolCallInfo[] = [];
    const reads: ResourceReadInfo[] = [];
    server = await startServer({
      observer: { onToolCall: (info) => calls.push(info), onResourceRead: (info) => reads.push(info) },
    });
    server.registerTool(new FilesPackage());
    let version = 0;
    server.registerContentDocument({ name: 'status', content: () => `status v${++version}`, title: 'Status' });
    client = await connect(kind, new URL(server.address.url));

    // The tutorial joins the instructions (a view reads them when it is made).
    expect(client.instructions()).toBe('Files tutorial: call read_files with every path you need in one call.');
    const listed = await client.toolNames();
    expect(listed).toEqual(['echo', 'whoami', 'get_weather', 'read_files']);

    const chain = await client.callTool('read_files', { paths: ['a.md', 'b.md'] });
    expect(texts(chain)).toEqual(['contents of a.md', 'contents of b.md']);
    expect(chain.isError).toBeFalsy();
    const thrown = await client.callTool('get_weather', { city: 'Atlantis' });
    expect(thrown.isError).toBe(true);
    expect(texts(thrown).join('\n')).toContain('City not found: Atlantis');

    // Disabling one tool of the package hides only that tool.
    const before = client.toolsChanged.count;
    server.disableTool('read_files');
    await client.toolsChanged.waitFor(before + 1);
    expect(await client.toolNames()).toEqual(['echo', 'whoami', 'get_weather']);

    // Content documents are read lazily, on every read.
    const uri = 'content://status';
    expect((await client.readResource(uri)).contents[0]).toMatchObject({
      uri,
      mimeType: 'text/markdown',
      text: 'status v1',
    });
    expect((await client.readResource(uri)).contents[0]?.text).toBe('status v2');
    await expect(client.readResource('content://nope')).rejects.toThrow();

    await until(() => calls.length === 2 && reads.length === 3, 'observer callbacks');
    expect(calls[0]).toMatchObject({ name: 'read_files', args: { paths: ['a.md', 'b.md'] } });
    expect(calls[0]!.result?.content).toHaveLength(2);
    expect(calls[1]).toMatchObject({ name: 'get_weather', result: { isError: true } });
    expect(calls.every((call) => call.durationMs >= 0 && call.error === undefined)).toBe(true);
    expect(reads.map(({ uri: read, ok }) => [read, ok])).toEqual([
      [uri, true],
      [uri, true],
      ['content://nope', false],
    ]);
    expect(reads[2]!.error).toMatch(/not found/i);
  });

  it('lists each llm-chat tool with exactly its toOpenAI() parameters', async () => {
    server = await startServer();
    const tools = [new WeatherTool(), new ReadFilesTool()];
    server.registerTool(new PlainPackage(tools));
    const url = new URL(server.address.url);
    // The SDK clients hide the listed schemas behind toolNames(): ask over the raw SDK client.
    client = await connect(kind, url);
    const raw = await listToolsRaw(url, kind);
    for (const tool of tools) {
      expect(raw.find((entry) => entry.name === tool.name)?.inputSchema).toEqual(tool.toOpenAI().function.parameters);
    }
  });
});

/** `tools/list` entries through a v1 (legacy) or v2 client of the same era. */
async function listToolsRaw(url: URL, kind: ClientKind): Promise<Array<{ name: string; inputSchema: unknown }>> {
  const { Client: V1 } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { Client: V2 } = await import('@modelcontextprotocol/client');
  const info = { name: 'raw', version: '1.0.0' };
  if (kind === 'v1') {
    const v1 = new V1(info);
    await v1.connect(new HttpV1(url));
    try {
      return (await v1.listTools()).tools;
    } finally {
      await v1.close();
    }
  }
  const v2 = new V2(info, { versionNegotiation: { mode: kind === 'v2-modern' ? { pin: '2026-07-28' } : 'legacy' } });
  await v2.connect(new HttpV2(url));
  try {
    return (await v2.listTools()).tools;
  } finally {
    await v2.close();
  }
}

describe('sessionTools in the llm-chat-mcp factory form ({ create() })', () => {
  let server: HttpMcpServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('gives each legacy HTTP session its own set and disposes it exactly once', async () => {
    let created = 0;
    let disposed = 0;
    server = await startServer({
      sessionTools: {
        create: () => {
          created += 1;
          return { tools: [new PlainPackage([new CounterTool()])], dispose: async () => void (disposed += 1) };
        },
      },
    });
    const url = new URL(server.address.url);
    const a = await connect('v1', url);
    const b = await connect('v2-legacy', url);
    expect(await a.toolNames()).toContain('counter');
    expect(texts(await a.callTool('counter'))).toEqual(['1']);
    expect(texts(await a.callTool('counter'))).toEqual(['2']);
    expect(texts(await b.callTool('counter'))).toEqual(['1']);
    expect(created).toBe(2);
    await server.closeSession(server.listSessions()[0]!.id);
    await until(() => disposed === 1, 'one set disposed');
    await server.closeSession(server.listSessions()[0]!.id);
    await until(() => disposed === 2, 'both sets disposed');
    await Promise.all([a.close().catch(() => {}), b.close().catch(() => {})]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(disposed).toBe(2);
  });
});
