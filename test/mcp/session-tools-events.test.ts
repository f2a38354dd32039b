import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineTool, Tool } from '../../src/registry/tool.js';
import { InMemoryServer } from '../support/in-memory.js';

let server: InMemoryServer;
afterEach(() => server?.stop());

const text = (result: { content: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text;

class CounterTool extends Tool<Record<string, never>> {
  count = 0;
  disposed = 0;
  constructor() {
    super({ name: 'counter', description: 'Counts calls in this session' });
  }
  execute() {
    this.count += 1;
    return String(this.count);
  }
  dispose() {
    this.disposed += 1;
  }
}

describe('per-session tools', () => {
  it('gives each session its own instance, applies the disabled set, disposes once on close', async () => {
    const made: CounterTool[] = [];
    server = new InMemoryServer(undefined, {
      sessionTools: () => {
        const tool = new CounterTool();
        made.push(tool);
        return [tool];
      },
    });
    server.registerTool(defineTool({ name: 'shared', execute: () => 'shared' }));
    const a = await server.connect('legacy');
    const b = await server.connect('modern');
    expect((await a.listTools()).tools.map((t) => t.name)).toEqual(['shared', 'counter']);
    expect(text(await a.callTool({ name: 'counter', arguments: {} }))).toBe('1');
    expect(text(await a.callTool({ name: 'counter', arguments: {} }))).toBe('2');
    expect(text(await b.callTool({ name: 'counter', arguments: {} }))).toBe('1');

    server.disableTool('counter');
    expect((await b.listTools()).tools.map((t) => t.name)).toEqual(['shared']);
    await expect(b.callTool({ name: 'counter', arguments: {} })).rejects.toThrow(/disabled/);
    server.enableTool('counter');

    await a.close();
    await vi.waitFor(() => expect(made.filter((t) => t.disposed === 1)).toHaveLength(1));
    await server.stop();
    await vi.waitFor(() => expect(made.every((t) => t.disposed === 1)).toBe(true));
  });
});

describe('server events', () => {
  it('reports registrations, toggles with the whole disabled set, and tool calls with duration', async () => {
    server = new InMemoryServer();
    const log: string[] = [];
    server.events.on('toolRegistered', ({ tool, enabled }) => log.push(`registered ${tool.name} ${enabled}`));
    server.events.on('toolToggled', ({ name, enabled, disabled }) =>
      log.push(`toggled ${name} ${enabled} [${disabled}]`),
    );
    const finished: Array<{ name: string; durationMs: number; isError: boolean }> = [];
    server.events.on('toolCallFinished', (event) => finished.push(event));
    server.events.on('toolCallStarted', ({ name }) => log.push(`call ${name}`));

    server.disableTool('b');
    server.registerTool(defineTool({ name: 'a', execute: () => 'a' }));
    server.registerTool(defineTool({ name: 'b', execute: () => 'b' }));
    server.registerTool(
      defineTool({
        name: 'boom',
        execute: () => {
          throw new Error('kaput');
        },
      }),
    );
    server.setDisabledTools(['a']);
    const client = await server.connect('legacy');
    await client.callTool({ name: 'boom', arguments: {} });

    expect(log).toEqual([
      'registered a true',
      'registered b false',
      'registered boom true',
      'toggled a false [a]',
      'toggled b true [a]',
      'call boom',
    ]);
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ name: 'boom', isError: true, error: expect.any(Error) });
    expect(finished[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('a throwing listener never breaks the server', async () => {
    server = new InMemoryServer();
    server.events.on('toolRegistered', () => {
      throw new Error('listener bug');
    });
    expect(() => server.registerTool(defineTool({ name: 'x', execute: () => 'x' }))).not.toThrow();
    const client = await server.connect('legacy');
    expect(text(await client.callTool({ name: 'x', arguments: {} }))).toBe('x');
  });
});
