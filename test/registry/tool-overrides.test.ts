// Tool overrides (#26 item 3): the registry's model (validation, collisions, the name mapping, the
// cached list), the stores (memory, file round-trip, an old file without overrides), and the
// server over real HTTP with the v1, v2 legacy and v2 2026-07-28 clients: one list_changed per
// change, the tool listed and called under its new name only, disabling by the registered name.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOverrideError } from '../../src/errors.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { FileToolStateStore } from '../../src/state/file-tool-state-store.js';
import { MemoryToolStateStore } from '../../src/state/memory-tool-state-store.js';
import { CLIENT_KINDS, connectClient } from '../support/clients.js';
import { silentLogger } from '../support/in-memory.js';

const echo = () =>
  defineTool({
    name: 'echo',
    title: 'Echo',
    description: 'Echoes text',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => `echo:${text}`,
  });
const plain = (name: string) => defineTool({ name, execute: () => name });

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

describe('ToolRegistry overrides', () => {
  it('renames, retitles and describes a tool in the cached list; the old name resolves to nothing', () => {
    const registry = new ToolRegistry();
    registry.register(echo());
    registry.register(plain('other'));
    const changes: unknown[] = [];
    registry.onChange((change) => changes.push(change));
    const before = registry.listEnabled();
    registry.setOverride('echo', { name: 'say', description: 'Says text back' });
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ toolsChanged: true, overridden: ['echo'], toggled: [] });
    const after = registry.listEnabled();
    expect(after).not.toBe(before); // rebuilt once per change, then cached
    expect(registry.listEnabled()).toBe(after);
    expect(after.map((tool) => [tool.name, tool.title, tool.description])).toEqual([
      ['say', 'Echo', 'Says text back'],
      ['other', undefined, undefined],
    ]);
    expect(after[0]!.inputSchema).toBe(before[0]!.inputSchema);
    expect(registry.getExposed('say')?.name).toBe('echo');
    expect(registry.getExposed('echo')).toBeUndefined();
    expect(registry.get('echo')?.name).toBe('echo'); // the app API keeps the registered name
    const row = registry.snapshot()[0]!;
    expect([row.name, row.override]).toEqual(['say', { name: 'say', description: 'Says text back' }]);
    registry.setOverride('echo', undefined);
    expect(changes).toHaveLength(2);
    expect(registry.listEnabled()[0]!.name).toBe('echo');
    expect(registry.getExposed('say')).toBeUndefined();
    expect(registry.overrides()).toEqual({});
  });

  it('refuses bad names and collisions with a ToolOverrideError, and changes nothing', () => {
    const registry = new ToolRegistry();
    registry.register(echo());
    registry.register(plain('other'));
    registry.setOverride('other', { name: 'renamed' });
    const refused = (name: string, override: unknown) => {
      try {
        registry.setOverride(name, override as never);
      } catch (error) {
        expect(error).toBeInstanceOf(ToolOverrideError);
        return [(error as ToolOverrideError).code, (error as ToolOverrideError).reason, (error as Error).message];
      }
      throw new Error('not refused');
    };
    expect(refused('echo', { name: 'has space' })).toEqual([
      'TOOL_OVERRIDE',
      'invalid',
      expect.stringMatching(/Invalid new name "has space" for "echo"/),
    ]);
    expect(refused('echo', { name: 'x'.repeat(129) })[1]).toBe('invalid');
    expect(refused('echo', { name: 'ok', colour: 'red' })[2]).toMatch(/Unknown override field "colour"/);
    expect(refused('echo', { title: 42 })[2]).toMatch(/must be a string/);
    expect(refused('echo', { name: 'other' })).toEqual([
      'TOOL_OVERRIDE',
      'collision',
      expect.stringMatching(/a tool named "other" is registered/),
    ]);
    expect(refused('echo', { name: 'renamed' })[2]).toMatch(/the override of "other" already uses that name/);
    expect(Object.keys(registry.overrides())).toEqual(['other']);
    // A rename to the tool's own name, and empty strings, are no override at all.
    registry.setOverride('echo', { name: 'echo', title: '', description: '' });
    expect(registry.overrides().echo).toBeUndefined();
  });

  it('disabling by the registered name hides the renamed tool; a later registration of the new name wins it', () => {
    const registry = new ToolRegistry();
    registry.register(echo());
    registry.setOverride('echo', { name: 'say' });
    registry.setOverride('later', { name: 'later_renamed' }); // not registered yet: kept as a preference
    registry.disable('echo');
    expect(registry.listEnabled()).toEqual([]);
    expect(registry.getExposed('say')?.name).toBe('echo'); // resolvable, so the call is refused as disabled
    registry.enable('echo');
    registry.register(plain('later'));
    expect(registry.listEnabled().map((tool) => tool.name)).toEqual(['say', 'later_renamed']);
    // A tool registered under a name an override uses: the registered name wins, the rename waits.
    registry.register(plain('say'));
    expect(registry.listEnabled().map((tool) => tool.name)).toEqual(['echo', 'later_renamed', 'say']);
    expect(registry.getExposed('say')?.name).toBe('say');
  });

  it('replaceState applies a disabled set and overrides in one change', () => {
    const registry = new ToolRegistry();
    registry.register(echo());
    registry.register(plain('other'));
    let count = 0;
    registry.onChange(() => (count += 1));
    registry.replaceState(['other'], { echo: { title: 'Parrot' }, junk: { name: 'bad name' } });
    expect(count).toBe(1);
    expect(registry.listEnabled().map((tool) => [tool.name, tool.title])).toEqual([['echo', 'Parrot']]);
    expect(registry.overrides()).toEqual({ echo: { title: 'Parrot' } }); // an invalid stored entry is dropped
  });
});

describe('tool state stores keep overrides', () => {
  it('memory store', async () => {
    const store = new MemoryToolStateStore();
    const saved = await store.save(['a'], { b: { name: 'b2' } });
    expect(await store.load()).toMatchObject({ disabled: ['a'], overrides: { b: { name: 'b2' } }, version: 1 });
    expect(saved.overrides).toEqual({ b: { name: 'b2' } });
  });

  it('file store round-trip, and an old file without overrides still loads', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'overrides-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'state.json');
    const old = { format: 'mcp-toolkit/tool-state', version: 4, savedAt: 1, disabled: ['x'] };
    await writeFile(file, JSON.stringify(old));
    const store = new FileToolStateStore(file);
    expect(await store.load()).toEqual({ disabled: ['x'], overrides: {}, version: 4, savedAt: 1 });
    await store.save(['x'], { echo: { name: 'say', title: 'Say', description: 'Says' } });
    await store.close();
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      version: 5,
      overrides: { echo: { name: 'say', title: 'Say', description: 'Says' } },
    });
    const again = new FileToolStateStore(file);
    closers.push(() => again.close());
    expect((await again.load())?.overrides).toEqual({ echo: { name: 'say', title: 'Say', description: 'Says' } });
  });

  it('a server loads the stored overrides at start and saves its own', async () => {
    const store = new MemoryToolStateStore(['other'], { echo: { name: 'say' } });
    const server = new HttpMcpServer(
      { name: 'o', version: '1' },
      { port: 0, logger: silentLogger(), toolState: store },
    );
    closers.push(() => server.stop());
    server.registerTool(echo());
    server.registerTool(plain('other'));
    await server.start();
    expect(server.getToolStates().map((row) => [row.tool.name, row.name, row.enabled])).toEqual([
      ['echo', 'say', true],
      ['other', 'other', false],
    ]);
    server.setToolOverride('other', { description: 'Other things' });
    await server.flushToolState();
    expect((await store.load())?.overrides).toEqual({ echo: { name: 'say' }, other: { description: 'Other things' } });
  });
});

describe('a store from before overrides', () => {
  it('answers snapshots without overrides: the server keeps its overrides in memory and saves once per change', async () => {
    const saves: string[][] = [];
    const store = {
      row: undefined as { disabled: string[]; version: number; savedAt: number } | undefined,
      async load() {
        return this.row;
      },
      async save(disabled: readonly string[]) {
        saves.push([...disabled]);
        this.row = { disabled: [...disabled].sort(), version: (this.row?.version ?? 0) + 1, savedAt: Date.now() };
        return this.row;
      },
    };
    const server = new HttpMcpServer(
      { name: 'o', version: '1' },
      { port: 0, logger: silentLogger(), toolState: store },
    );
    closers.push(() => server.stop());
    server.registerTool(echo());
    await server.start();
    await server.flushToolState();
    server.setToolOverride('echo', { name: 'say' });
    await server.flushToolState();
    server.disableTool('echo');
    await server.flushToolState();
    expect(server.getToolStates()[0]).toMatchObject({ name: 'say', enabled: false, override: { name: 'say' } });
    expect(saves).toEqual([[], [], ['echo']]);
  });
});

describe('overrides reach clients of both eras', () => {
  for (const kind of CLIENT_KINDS) {
    it(`one list_changed per change; listed and called under the new name only (${kind})`, async () => {
      const server = new HttpMcpServer({ name: 'o', version: '1' }, { port: 0, logger: silentLogger() });
      closers.push(() => server.stop());
      server.registerTool(echo());
      const finished: string[] = [];
      server.events.on('toolCallFinished', (event) => finished.push(event.name));
      await server.start();
      const url = new URL(server.address.url);
      const client = await connectClient(kind, kind === 'v1' ? new HttpV1(url) : new HttpV2(url));
      closers.push(() => client.close());
      expect(await client.toolNames()).toEqual(['echo']);

      server.setToolOverride('echo', { name: 'say', description: 'Says text back' });
      await client.toolsChanged.waitFor(1);
      expect(await client.toolNames()).toEqual(['say']);
      expect((await client.callTool('say', { text: 'hi' })).content[0]?.text).toBe('echo:hi');
      await expect(client.callTool('echo', { text: 'hi' })).rejects.toThrow(/Unknown tool "echo"/);
      expect(finished).toEqual(['echo']); // events (and the settings page's statistics) use the registered name

      // The app API takes the registered name: disabling "echo" hides "say".
      server.disableTool('echo');
      await client.toolsChanged.waitFor(2);
      expect(await client.toolNames()).toEqual([]);
      await expect(client.callTool('say', { text: 'hi' })).rejects.toThrow(/Tool "say" is disabled/);
      server.enableTool('echo');
      server.setToolOverride('echo', undefined);
      await client.toolsChanged.waitFor(4);
      expect(await client.toolNames()).toEqual(['echo']);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(client.toolsChanged.count).toBe(4); // each change told exactly once
    });
  }
});
