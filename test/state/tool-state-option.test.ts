import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolStateError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/tool.js';
import { FileToolStateStore } from '../../src/state/file-tool-state-store.js';
import { MemoryToolStateStore } from '../../src/state/memory-tool-state-store.js';
import type { ToolStateSnapshot, ToolStateStore } from '../../src/state/tool-state-store.js';
import { Counter } from '../support/clients.js';
import { InMemoryServer } from '../support/in-memory.js';

const tool = (name: string) => defineTool({ name, description: `${name} tool`, execute: () => name });

function serverWith(store: ToolStateStore, logger?: unknown): InMemoryServer {
  const server = new InMemoryServer(
    { name: 't', version: '1' },
    { toolState: store, ...(logger ? { logger: logger as never } : {}) },
  );
  server.registerTool(tool('alpha'));
  server.registerTool(tool('beta'));
  return server;
}

/** A store that pushes snapshots "saved elsewhere" and records its own saves. */
class PushingStore implements ToolStateStore {
  saves: string[][] = [];
  closed = false;
  version = 1;
  #listener?: (snapshot: ToolStateSnapshot) => void;
  async load() {
    return undefined;
  }
  async save(disabled: readonly string[]) {
    this.saves.push([...disabled]);
    return { disabled: [...disabled], version: ++this.version, savedAt: Date.now() };
  }
  subscribe(listener: (snapshot: ToolStateSnapshot) => void) {
    this.#listener = listener;
    return () => (this.#listener = undefined);
  }
  push(disabled: string[]) {
    this.#listener?.({ disabled, version: ++this.version, savedAt: Date.now() });
  }
  get subscribed() {
    return this.#listener !== undefined;
  }
  async close() {
    this.closed = true;
  }
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tool-state-opt-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('BaseMcpServer toolState option', () => {
  it('applies the saved set at start (replacing the configured one), unregistered names included', async () => {
    const server = serverWith(new MemoryToolStateStore(['beta', 'gamma']));
    server.setDisabledTools(['alpha']); // configured default, overridden by the saved set
    await server.start();
    expect(server.getToolStates().map((state) => [state.tool.name, state.enabled])).toEqual([
      ['alpha', true],
      ['beta', false],
    ]);
    server.registerTool(tool('gamma')); // saved before it existed: starts disabled
    expect(server.tools.isEnabled('gamma')).toBe(false);
    await server.stop();
  });

  it('stores the configured set when nothing was saved, and every change after start', async () => {
    const file = path.join(dir, 'state.json');
    const server = serverWith(new FileToolStateStore(file));
    server.setDisabledTools(['alpha', 'later']);
    await server.start();
    await server.flushToolState();
    expect(JSON.parse(await readFile(file, 'utf8')).disabled).toEqual(['alpha', 'later']);
    server.enableTool('alpha');
    server.disableTool('unknown_yet'); // no visible change, still persisted
    await server.flushToolState();
    expect(JSON.parse(await readFile(file, 'utf8')).disabled).toEqual(['later', 'unknown_yet']);
    await server.stop();
  });

  it('100 concurrent toggles: after flush the file matches the final set and parses', async () => {
    const file = path.join(dir, 'state.json');
    const server = serverWith(new FileToolStateStore(file));
    await server.start();
    for (let index = 0; index < 100; index += 1) {
      if (index % 3 === 0) server.disableTool('alpha');
      else if (index % 3 === 1) server.enableTool('alpha');
      else server.disableTool(index % 2 ? 'beta' : `extra_${index}`);
      if (index % 10 === 0) server.enableTool('beta');
    }
    await server.stop(); // stop() waits for pending saves
    const expected = server.tools.disabledNames();
    expect(JSON.parse(await readFile(file, 'utf8')).disabled).toEqual(expected);
    expect((await new FileToolStateStore(file).load())?.disabled).toEqual(expected);
  });

  it('a corrupt file: warns naming the file, starts with the configured set, rewrites it on the next change', async () => {
    const file = path.join(dir, 'state.json');
    await writeFile(file, '{"format":"mcp-toolkit/tool-state","ver');
    const warnings: string[] = [];
    const noop = () => {};
    const logger = { debug: noop, info: noop, error: noop, warn: (_o: unknown, msg: string) => warnings.push(msg) };
    Object.assign(logger, { child: () => logger });
    const server = serverWith(new FileToolStateStore(file), logger);
    server.setDisabledTools(['beta']);
    await server.start();
    expect(warnings.join('\n')).toContain(file);
    expect(warnings.join('\n')).toMatch(/configured disabled tools: \[beta\]/);
    expect(server.tools.disabledNames()).toEqual(['beta']);
    expect(await readFile(file, 'utf8')).toContain('"ver'); // not overwritten until a change
    server.disableTool('alpha');
    await server.flushToolState();
    expect(JSON.parse(await readFile(file, 'utf8')).disabled).toEqual(['alpha', 'beta']);
    await server.stop();
  });

  it('a store that cannot load for another reason fails start()', async () => {
    const store = new MemoryToolStateStore();
    store.load = async () => {
      throw new Error('connection refused');
    };
    await expect(serverWith(store).start()).rejects.toThrow('connection refused');
  });

  it('a failed save is reported as toolStateSaveFailed and retried with the next change', async () => {
    const store = new MemoryToolStateStore();
    const server = serverWith(store);
    await server.start();
    const failures: ToolStateError[] = [];
    server.events.on('toolStateSaveFailed', ({ error }) => failures.push(error));
    const save = store.save.bind(store);
    store.save = async () => {
      throw new ToolStateError('disk full', 'test');
    };
    server.disableTool('alpha');
    await server.flushToolState();
    expect(failures.map((error) => error.message)).toEqual(['disk full']);
    store.save = save;
    server.disableTool('beta');
    await server.flushToolState();
    expect((await store.load())?.disabled).toEqual(['alpha', 'beta']);
    await server.stop();
  });

  it('applies pushed changes once (one list_changed per client), never saves them back, closes on stop()', async () => {
    const store = new PushingStore();
    const server = serverWith(store);
    await server.start();
    await server.flushToolState();
    expect(store.saves).toEqual([[]]); // the (empty) defaults, stored once
    const client = await server.connect('legacy');
    const changed = new Counter();
    client.setNotificationHandler('notifications/tools/list_changed', () => changed.bump());
    store.push(['alpha', 'beta']);
    await changed.waitFor(1);
    expect((await client.listTools()).tools.map((listed) => listed.name)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(changed.count).toBe(1);
    store.push(['alpha', 'beta']); // no visible change: nothing sent
    store.push(['beta']);
    await changed.waitFor(2);
    expect((await client.listTools()).tools.map((listed) => listed.name)).toEqual(['alpha']);
    await server.flushToolState();
    expect(store.saves).toEqual([[]]);
    await client.close();
    await server.stop();
    expect(store.closed).toBe(true);
    expect(store.subscribed).toBe(false);
  });

  it('a push arriving during a local save waits, and is applied only if it is newer than that save', async () => {
    const store = new PushingStore();
    const server = serverWith(store);
    await server.start();
    await server.flushToolState();
    server.disableTool('alpha'); // local save in flight (version 3)
    store.version = 10;
    store.push(['beta']); // version 11, newer than the local save: wins afterwards
    expect(server.tools.disabledNames()).toEqual(['alpha']);
    await server.flushToolState();
    expect(server.tools.disabledNames()).toEqual(['beta']);
    await server.stop();
  });
});
