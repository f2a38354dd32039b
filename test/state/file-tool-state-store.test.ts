import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ToolStateError, ToolStateLockedError } from '../../src/errors.js';
import { FileToolStateStore } from '../../src/state/file-tool-state-store.js';
import { MemoryToolStateStore } from '../../src/state/memory-tool-state-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tool-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('FileToolStateStore', () => {
  it('loads nothing from a missing file, then round-trips a saved set (sorted, unique, versioned)', async () => {
    const file = path.join(dir, 'nested', 'state.json');
    const store = new FileToolStateStore(file);
    expect(await store.load()).toBeUndefined();
    const first = await store.save(['b', 'a', 'b', 'not_registered_yet']);
    expect(first.disabled).toEqual(['a', 'b', 'not_registered_yet']);
    expect(first.version).toBe(1);
    const second = await store.save(['c']);
    expect(second.version).toBe(2);
    const raw = JSON.parse(await readFile(file, 'utf8'));
    expect(raw).toMatchObject({ format: 'mcp-toolkit/tool-state', version: 2, disabled: ['c'] });
    const again = new FileToolStateStore(file); // same process: may share the file
    expect(await again.load()).toMatchObject({ disabled: ['c'], version: 2 });
    await again.close();
    expect(await readdir(path.dirname(file))).toEqual(['state.json', 'state.json.lock']); // no temporary
    await store.close(); // the last holder removes the lock
    expect(await readdir(path.dirname(file))).toEqual(['state.json']);
  });

  it('continues the version of an existing file after load()', async () => {
    const file = path.join(dir, 'state.json');
    await new FileToolStateStore(file).save(['a']);
    await new FileToolStateStore(file).save(['a']); // fresh store without load starts at 1 again...
    const store = new FileToolStateStore(file);
    await store.load();
    expect((await store.save(['x'])).version).toBe(2); // ...a loaded one continues
  });

  it('reports a truncated file as a ToolStateError naming the file', async () => {
    const file = path.join(dir, 'state.json');
    await writeFile(file, '{"format":"mcp-toolkit/tool-state","version":3,"disab');
    const error = await new FileToolStateStore(file).load().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolStateError);
    expect((error as ToolStateError).code).toBe('TOOL_STATE');
    expect((error as ToolStateError).source).toBe(file);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/not valid JSON/);
  });

  it('refuses JSON that is not a tool state file', async () => {
    const file = path.join(dir, 'package.json');
    await writeFile(file, JSON.stringify({ name: 'x', disabled: 'a' }));
    await expect(new FileToolStateStore(file).load()).rejects.toThrow(/not a tool state file/);
  });

  it('reports an unwritable location as a ToolStateError', async () => {
    const blocker = path.join(dir, 'a-file');
    await writeFile(blocker, 'x');
    const store = new FileToolStateStore(path.join(blocker, 'state.json'));
    await expect(store.save(['a'])).rejects.toBeInstanceOf(ToolStateError);
    await expect(store.save(['b'])).rejects.toThrow(blocker); // the queue survives
  });

  it('serializes 100 concurrent saves: the file ends at the last one and parses', async () => {
    const file = path.join(dir, 'state.json');
    const store = new FileToolStateStore(file);
    const saves = Array.from({ length: 100 }, (_, index) => store.save([`tool_${index}`]));
    const results = await Promise.all(saves);
    expect(results.map((snapshot) => snapshot.version)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    const raw = JSON.parse(await readFile(file, 'utf8'));
    expect(raw.disabled).toEqual(['tool_99']);
    expect(raw.version).toBe(100);
  });

  it('removes temporaries of dead writers on load and keeps the old content (crash mid-write)', async () => {
    const file = path.join(dir, 'state.json');
    const writer = new FileToolStateStore(file);
    await writer.save(['kept']);
    await writer.close();
    // A writer killed between writing its temporary and the rename leaves this behind:
    const orphan = `${file}.999999999.deadbeef.tmp`;
    await writeFile(orphan, '{"format":"mcp-toolkit/tool-state","version":9,"sav');
    const store = new FileToolStateStore(file);
    expect((await store.load())?.disabled).toEqual(['kept']);
    await store.close();
    expect(await readdir(dir)).toEqual(['state.json']);
  });
});

describe('FileToolStateStore: one writer process per file', () => {
  let other: ChildProcess | undefined;
  afterEach(async () => {
    if (other?.exitCode === null && other.signalCode === null && other.pid) process.kill(other.pid, 'SIGKILL');
    other = undefined;
  });
  /** A live process that is not this one (its pid stands for another server). */
  async function liveProcess(): Promise<number> {
    other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    await new Promise((resolve) => other!.once('spawn', resolve));
    return other.pid!;
  }
  const lockOf = (pid: number, hostname = os.hostname()) => JSON.stringify({ pid, hostname, since: Date.now() - 1000 });

  it('refuses a file whose lock names a live process, naming its pid; takes the lock over once it died', async () => {
    const file = path.join(dir, 'state.json');
    const pid = await liveProcess();
    await writeFile(`${file}.lock`, lockOf(pid));
    const store = new FileToolStateStore(file);
    const error = await store.load().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolStateLockedError);
    expect(error).not.toBeInstanceOf(ToolStateError); // the server must not fall back to defaults
    expect(error).toMatchObject({ code: 'TOOL_STATE_LOCKED', pid, file, lockFile: `${file}.lock` });
    expect((error as Error).message).toContain(`in use by process ${pid} on this host`);
    await expect(store.save(['a'])).rejects.toBeInstanceOf(ToolStateLockedError);
    expect(existsSync(file)).toBe(false); // nothing written over the other writer

    process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => other!.once('exit', resolve));
    expect(await store.load()).toBeUndefined();
    expect(JSON.parse(await readFile(`${file}.lock`, 'utf8')).pid).toBe(process.pid);
    await store.save(['a']);
    await store.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('a lock left by this very pid (a container restarted) is stale; a lock of another host is not', async () => {
    const file = path.join(dir, 'state.json');
    await writeFile(`${file}.lock`, lockOf(process.pid));
    const store = new FileToolStateStore(file);
    expect(await store.load()).toBeUndefined();
    await store.close();
    await writeFile(`${file}.lock`, lockOf(4242, 'another-host.example'));
    const error = await new FileToolStateStore(file).load().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolStateLockedError);
    expect((error as Error).message).toContain('process 4242 on host another-host.example');
    expect((error as Error).message).toContain(`delete ${file}.lock if none runs`);
  });

  it('stores of one process share the lock, also when they load at the same moment', async () => {
    const file = path.join(dir, 'state.json');
    const stores = [new FileToolStateStore(file), new FileToolStateStore(file), new FileToolStateStore(file)];
    await Promise.all([...stores.map((store) => store.load()), stores[0]!.save(['a'])]);
    const lock = JSON.parse(await readFile(`${file}.lock`, 'utf8'));
    expect(lock).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    await stores[0]!.close();
    await stores[1]!.close();
    expect(existsSync(`${file}.lock`)).toBe(true); // the third still writes
    await stores[2]!.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('an unreadable lock being written is waited for, then treated as stale', async () => {
    const file = path.join(dir, 'state.json');
    await writeFile(`${file}.lock`, '');
    const old = new Date(Date.now() - 10_000);
    await utimes(`${file}.lock`, old, old);
    const store = new FileToolStateStore(file);
    expect(await store.load()).toBeUndefined();
    await store.close();
  });
});

describe('MemoryToolStateStore', () => {
  it('starts empty or from an initial set and versions each save', async () => {
    expect(await new MemoryToolStateStore().load()).toBeUndefined();
    const store = new MemoryToolStateStore(['b', 'a']);
    expect(await store.load()).toMatchObject({ disabled: ['a', 'b'], version: 1 });
    expect(await store.save(['c'])).toMatchObject({ disabled: ['c'], version: 2 });
    expect((await store.load())?.disabled).toEqual(['c']);
  });
});
