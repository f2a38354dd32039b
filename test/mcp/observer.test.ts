import { afterEach, describe, expect, it } from 'vitest';
import { InvalidResourceError, InvalidToolError } from '../../src/errors.js';
import type { ResourceReadInfo, ToolCallInfo } from '../../src/mcp/server/observer.js';
import { makeSessionTools } from '../../src/mcp/server/session-tools.js';
import { defineTool } from '../../src/registry/tool.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { contentDocumentUri } from '../../src/resources/content-document.js';
import { PlainPackage, WeatherTool } from '../fixtures/llm-chat-tools.mjs';
import { InMemoryServer, silentLogger } from '../support/in-memory.js';

describe('observer option and resourceRead event', () => {
  let server: InMemoryServer;
  afterEach(async () => server?.stop());

  it('reports thrown errors by message, survives a throwing observer, and reports failed reads', async () => {
    const calls: ToolCallInfo[] = [];
    const reads: ResourceReadInfo[] = [];
    server = new InMemoryServer(undefined, {
      observer: {
        onToolCall: (info) => {
          calls.push(info);
          throw new Error('observer bug');
        },
        onResourceRead: (info) => reads.push(info),
      },
    });
    const events: unknown[] = [];
    server.events.on('resourceRead', (event) => events.push(event));
    server.registerTool(
      defineTool({
        name: 'boom',
        execute: () => {
          throw new Error('kaputt');
        },
      }),
    );
    server.registerContentDocument({ name: 'notes', content: 'static text', mimeType: 'text/plain' });
    const client = await server.connect('legacy');
    const result = await client.callTool({ name: 'boom', arguments: {} });
    expect(result.isError).toBe(true);
    expect(calls).toEqual([{ name: 'boom', args: {}, error: 'kaputt', durationMs: expect.any(Number) }]);

    expect((await client.readResource({ uri: 'content://notes' })).contents).toEqual([
      { uri: 'content://notes', mimeType: 'text/plain', text: 'static text' },
    ]);
    await expect(client.readResource({ uri: 'content://missing' })).rejects.toThrow();
    expect(reads.map(({ uri, ok }) => ({ uri, ok }))).toEqual([
      { uri: 'content://notes', ok: true },
      { uri: 'content://missing', ok: false },
    ]);
    expect(events).toHaveLength(2);
  });

  it('reports a call refused for invalid arguments (execute never ran) once, with the arguments sent', async () => {
    const calls: ToolCallInfo[] = [];
    server = new InMemoryServer(undefined, { observer: { onToolCall: (info) => calls.push(info) } });
    const started: unknown[] = [];
    server.events.on('toolCallStarted', (event) => started.push(event));
    let ran = 0;
    server.registerTool(
      defineTool({
        name: 'typed',
        inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
        execute: () => String(++ran),
      }),
    );
    const client = await server.connect('legacy');
    const result = await client.callTool({ name: 'typed', arguments: { n: 'seven' } });
    expect(result.isError).toBe(true);
    expect(ran).toBe(0);
    expect(started).toEqual([]);
    expect(calls).toEqual([{ name: 'typed', args: { n: 'seven' }, result, durationMs: 0 }]);
  });

  it('content documents: encoded URIs, a provider read on every read, clear errors', async () => {
    server = new InMemoryServer();
    let n = 0;
    server.registerContentDocument({ name: 'release notes', content: async () => `read ${++n}` });
    const client = await server.connect('modern');
    const uri = contentDocumentUri('release notes');
    expect(uri).toBe('content://release%20notes');
    const listed = (await client.listResources()).resources.find((resource) => resource.uri === uri);
    expect(listed).toMatchObject({ name: 'release notes', mimeType: 'text/markdown' });
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: 'read 1' });
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: 'read 2' });
    expect(() => server.registerContentDocument({ name: '', content: 'x' })).toThrow(InvalidResourceError);
    expect(() => server.registerContentDocument({ name: 'x', content: 42 as never })).toThrow(InvalidResourceError);
    expect(() => server.registerContentDocument({ name: 'release notes', content: 'again' })).toThrow(/already/);
  });
});

describe('makeSessionTools', () => {
  const session = { era: 'legacy' as const };

  it('converts llm-chat packages from a { create() } factory and keeps its dispose', async () => {
    let disposed = 0;
    const own = makeSessionTools(
      { create: () => ({ tools: [new PlainPackage([new WeatherTool()])], dispose: () => void (disposed += 1) }) },
      session,
      new ToolRegistry(),
      silentLogger(),
    );
    expect(own.tools.map((tool) => tool.name)).toEqual(['get_weather']);
    await own.dispose?.();
    expect(disposed).toBe(1);
  });

  it('disposes the set and throws when one of its items is not a tool', async () => {
    let disposed = 0;
    const factory = {
      create: () => ({ tools: [{ nope: true } as never], dispose: async () => void (disposed += 1) }),
    };
    expect(() => makeSessionTools(factory, session, new ToolRegistry(), silentLogger())).toThrow(InvalidToolError);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(disposed).toBe(1);
  });

  it('still takes the function form, and skips names that clash with registered tools', () => {
    const registry = new ToolRegistry();
    registry.register(defineTool({ name: 'taken', execute: () => 'x' }));
    const own = makeSessionTools(
      () => [defineTool({ name: 'taken', execute: () => 'y' }), new WeatherTool()],
      session,
      registry,
      silentLogger(),
    );
    expect(own.tools.map((tool) => tool.name)).toEqual(['get_weather']);
    expect(own.dispose).toBeUndefined();
  });
});
