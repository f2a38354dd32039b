import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ToolStateError } from '../errors.js';
import { snapshotOf } from './memory-tool-state-store.js';
import type { ToolOverrides } from '../tool-overrides.js';
import type { ToolStateSnapshot, ToolStateStore } from './tool-state-store.js';
import { nodeCrypto } from '../lazy-module.js';
import { isProcessAlive, StateFileLock } from './state-file-lock.js';

/** Marks our files, so a wrong `--state-file` (some other JSON) is refused instead of misread. */
const FORMAT = 'mcp-toolkit/tool-state';

const fileSchema = z.object({
  format: z.literal(FORMAT),
  version: z.number().int().nonnegative(),
  savedAt: z.number().nonnegative(),
  disabled: z.array(z.string()),
  // Absent in files written before overrides existed; entries are checked by normalizeOverrides.
  overrides: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A {@link ToolStateStore} in one JSON file (what the CLI uses), e.g.
 * `{"format":"mcp-toolkit/tool-state","version":3,"savedAt":1764552000000,"disabled":["a"],
 * "overrides":{"b":{"name":"b2","description":"..."}}}` (a file without `overrides` loads as none).
 *
 * Writes are atomic and durable: the new content goes to a temporary file beside the target
 * (`<file>.<pid>.<random>.tmp`), is fsync'ed, renamed over the target, and the directory is
 * fsync'ed, so a crash at any point leaves either the old or the new file, never a mix.
 * Saves from this process are serialized in call order, so the file always ends at the last
 * saved set. The directory is created when missing. Leftover temporary files of a crashed
 * writer are removed on `load()`.
 *
 * One writer process per file: `load()` (and a first `save()`) takes the lock `<file>.lock`, holding
 * this process's pid, and `close()` gives it up; while another live process holds it they throw
 * `ToolStateLockedError` naming that process, so a second server on the same file refuses to
 * start instead of erasing the first one's changes. A lock left by a process that died is taken
 * over. (Replicas that share a state use the Redis store.)
 */
export class FileToolStateStore implements ToolStateStore {
  /** Absolute path of the state file. */
  readonly file: string;
  #version = 0;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #lock: StateFileLock;

  /** @param file - path of the JSON state file (resolved against the working directory). */
  constructor(file: string) {
    this.file = path.resolve(file);
    this.#lock = new StateFileLock(this.file);
  }

  /**
   * Takes the writer's lock, then reads the file. `undefined` when it does not exist yet.
   * @throws ToolStateLockedError (naming the other process) when another live process writes the file.
   * @throws ToolStateError (naming the file) when it cannot be read, is not valid JSON (e.g.
   *   truncated) or not a tool-state file; the caller then keeps its defaults.
   */
  async load(): Promise<ToolStateSnapshot | undefined> {
    await this.#lock.acquire();
    await this.#removeStaleTemporaries();
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new ToolStateError(`Cannot read the tool state file ${this.file}: ${(error as Error).message}`, this.file, {
        cause: error,
      });
    }
    let parsed: z.infer<typeof fileSchema>;
    try {
      parsed = fileSchema.parse(JSON.parse(text));
    } catch (error) {
      const why = error instanceof SyntaxError ? 'it is not valid JSON (truncated?)' : 'it is not a tool state file';
      throw new ToolStateError(
        `The tool state file ${this.file} is unusable: ${why}. Fix or delete it; the next change rewrites it.`,
        this.file,
        { cause: error },
      );
    }
    this.#version = Math.max(this.#version, parsed.version);
    return snapshotOf(parsed.disabled, parsed.overrides, parsed.version, parsed.savedAt);
  }

  /**
   * Writes the set atomically (see the class comment), after every earlier save of this store.
   * @throws ToolStateLockedError when another live process writes the file.
   * @throws ToolStateError naming the file when it cannot be written (permissions, full disk).
   */
  save(disabled: readonly string[], overrides?: ToolOverrides): Promise<ToolStateSnapshot> {
    const next = this.#queue.then(() => this.#write(disabled, overrides));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** Waits for the saves already queued, then gives the writer's lock up. */
  async close(): Promise<void> {
    await this.#queue;
    await this.#lock.release();
  }

  async #write(names: readonly string[], table: ToolOverrides | undefined): Promise<ToolStateSnapshot> {
    await this.#lock.acquire();
    const snapshot = snapshotOf(names, table, this.#version + 1);
    const { disabled, overrides, version, savedAt } = snapshot;
    const body = `${JSON.stringify({ format: FORMAT, version, savedAt, disabled, overrides }, null, 2)}\n`;
    const dir = path.dirname(this.file);
    const temporary = `${this.file}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`;
    try {
      await fs.mkdir(dir, { recursive: true });
      const handle = await fs.open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(body, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temporary, this.file);
      await syncDirectory(dir);
    } catch (error) {
      await fs.rm(temporary, { force: true }).catch(() => undefined);
      throw new ToolStateError(
        `Cannot write the tool state file ${this.file}: ${(error as Error).message}`,
        this.file,
        { cause: error },
      );
    }
    this.#version = snapshot.version;
    return snapshot;
  }

  /** Temporary files of writers that died mid-save (their pid is gone) are garbage. */
  async #removeStaleTemporaries(): Promise<void> {
    const dir = path.dirname(this.file);
    const prefix = `${path.basename(this.file)}.`;
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      const match = name.startsWith(prefix) ? /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length)) : null;
      if (match && !isProcessAlive(Number(match[1])))
        await fs.rm(path.join(dir, name), { force: true }).catch(() => undefined);
    }
  }
}

/** Makes the rename durable; some platforms (Windows) cannot open a directory, which is fine there. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw error;
  } finally {
    await handle?.close();
  }
}
