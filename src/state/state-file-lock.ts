import { promises as fs, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { ToolStateError, ToolStateLockedError } from '../errors.js';
import { nodeCrypto, nodeOs } from '../lazy-module.js';

/** What a lock file holds: who writes the state file. */
interface LockOwner {
  pid: number;
  hostname: string;
  /** Linux boot id: a lock written before a reboot is stale whatever its pid says. */
  bootId?: string;
  /** When the lock was taken, ms since the epoch. */
  since: number;
}

/** A lock file whose content cannot be read yet is being written; older than this, it is junk. */
const UNREADABLE_GRACE_MS = 2_000;
/** Where a lock cannot be created at all (read-only folder), nobody can write the state file either. */
const UNLOCKABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

let bootIdCache: string | undefined | null = null;
function bootId(): string | undefined {
  if (bootIdCache === null) {
    try {
      bootIdCache = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
    } catch {
      bootIdCache = undefined;
    }
  }
  return bootIdCache;
}

/** True while `pid` runs on this machine (EPERM: it runs, as another user). */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A lock is stale when its process is gone: same host and (pid dead, another boot, or our own pid,
 * which a container reuses at each start, while this process holds no such lock). Other hosts
 * (a shared folder) cannot be checked: assume alive.
 */
function isStale(owner: LockOwner): boolean {
  if (owner.hostname !== nodeOs().hostname()) return false;
  if (owner.pid === process.pid) return true;
  const boot = bootId();
  if (owner.bootId && boot && owner.bootId !== boot) return true;
  return !isProcessAlive(owner.pid);
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isInteger(value.pid) && typeof value.hostname === 'string' && typeof value.since === 'number') {
      return value as LockOwner;
    }
  } catch {
    // fall through: not (yet) a complete lock
  }
  return undefined;
}

/** Locks held by this process: file -> holders (stores), so one process may open a file twice. */
const held = new Map<string, { holders: number; content: string }>();
/** Lock files this process is creating right now. */
const acquiring = new Map<string, Promise<void>>();
let exitHookInstalled = false;

/** A process that exits without closing its stores leaves no lock behind. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const [lockFile, { content }] of held) {
      try {
        if (readFileSync(lockFile, 'utf8') === content) unlinkSync(lockFile);
      } catch {
        // already gone
      }
    }
  });
}

/**
 * One writer process per state file: a lock file `<file>.lock` created with O_EXCL holding the
 * writer's `{ pid, hostname, bootId, since }`. A lock whose process is gone (same host, pid not
 * running or another boot) is stale and taken over; a live one makes {@link acquire} throw
 * `ToolStateLockedError` naming that process. Within one process several stores may hold the
 * same file (counted); the lock file goes when the last one releases, or when the process exits.
 */
export class StateFileLock {
  /** Absolute path of the lock file. */
  readonly lockFile: string;
  #holding = false;

  /** @param file - absolute path of the state file the lock guards. */
  constructor(readonly file: string) {
    this.lockFile = `${file}.lock`;
  }

  /**
   * Takes the lock (again a no-op when this instance holds it).
   * @throws ToolStateLockedError when another live process holds it.
   * @throws ToolStateError when the lock file cannot be created for another reason.
   */
  async acquire(): Promise<void> {
    if (this.#holding) return;
    if (!held.has(this.lockFile)) {
      // One attempt per file at a time in this process, shared by every store that asks meanwhile.
      let taking = acquiring.get(this.lockFile);
      if (!taking) {
        taking = this.#take().finally(() => acquiring.delete(this.lockFile));
        acquiring.set(this.lockFile, taking);
      }
      await taking;
    }
    const shared = held.get(this.lockFile);
    if (!shared || this.#holding) return; // no lock possible here, or a concurrent call of this store won
    shared.holders += 1;
    this.#holding = true;
  }

  /** Creates the lock file (taking a stale one over), registered with no holder yet. */
  async #take(): Promise<void> {
    const owner: LockOwner = { pid: process.pid, hostname: nodeOs().hostname(), bootId: bootId(), since: Date.now() };
    const content = `${JSON.stringify(owner)}\n`;
    await fs.mkdir(path.dirname(this.lockFile), { recursive: true }).catch(() => undefined);
    for (let attempt = 0; ; attempt += 1) {
      try {
        await fs.writeFile(this.lockFile, content, { flag: 'wx', mode: 0o600 });
        held.set(this.lockFile, { holders: 0, content });
        installExitHook();
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (UNLOCKABLE.has(code)) return; // read-only place: saves fail on their own, with a clear error
        if (code !== 'EEXIST') {
          const message = `Cannot create the lock file ${this.lockFile}: ${(error as Error).message}`;
          throw new ToolStateError(message, this.file, { cause: error });
        }
      }
      const current = await this.#read();
      if (current === 'gone') continue;
      if (current.owner && !isStale(current.owner)) throw this.#lockedBy(current.owner);
      if (!current.owner && Date.now() - current.mtimeMs < UNREADABLE_GRACE_MS && attempt < 20) {
        await new Promise((resolve) => setTimeout(resolve, 100)); // its writer is still writing it
        continue;
      }
      if (attempt >= 20) throw this.#lockedBy(current.owner);
      await this.#breakStale(current.text);
    }
  }

  /** Gives the lock up (the file is removed when no store of this process holds it any more). */
  async release(): Promise<void> {
    if (!this.#holding) return;
    this.#holding = false;
    const shared = held.get(this.lockFile);
    if (!shared || --shared.holders > 0) return;
    held.delete(this.lockFile);
    // Only our own lock: had it been taken over meanwhile, the file is someone else's.
    const text = await fs.readFile(this.lockFile, 'utf8').catch(() => undefined);
    if (text === shared.content) await fs.rm(this.lockFile, { force: true }).catch(() => undefined);
  }

  async #read(): Promise<'gone' | { text: string; owner?: LockOwner; mtimeMs: number }> {
    try {
      const [text, stat] = await Promise.all([fs.readFile(this.lockFile, 'utf8'), fs.stat(this.lockFile)]);
      return { text, owner: parseOwner(text), mtimeMs: stat.mtimeMs };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
      throw new ToolStateError(`Cannot read the lock file ${this.lockFile}: ${(error as Error).message}`, this.file, {
        cause: error,
      });
    }
  }

  /**
   * Removes a stale lock without ever removing a fresh one: the lock is renamed aside (atomic),
   * and put back if what was moved is not the stale content seen (another process took over first).
   */
  async #breakStale(staleText: string): Promise<void> {
    const aside = `${this.lockFile}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.stale`;
    try {
      await fs.rename(this.lockFile, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const moved = await fs.readFile(aside, 'utf8').catch(() => staleText);
    if (moved !== staleText) await fs.link(aside, this.lockFile).catch(() => undefined);
    await fs.rm(aside, { force: true });
  }

  #lockedBy(owner: LockOwner | undefined): ToolStateLockedError {
    const local = owner?.hostname === nodeOs().hostname();
    const who = owner
      ? `process ${owner.pid} on ${local ? 'this host' : `host ${owner.hostname}`}, since ${new Date(owner.since).toISOString()}`
      : 'another process (its lock file is unreadable)';
    const stop =
      owner && local ? `stop process ${owner.pid}` : `stop that process (or delete ${this.lockFile} if none runs)`;
    return new ToolStateLockedError(
      `The tool state file ${this.file} is in use by ${who}; lock file ${this.lockFile}. One process writes ` +
        `a state file at a time, or each would erase the other's changes: ${stop}, or give this server ` +
        'its own state file (CLI: --state-file <path>).',
      this.file,
      this.lockFile,
      owner?.pid,
    );
  }
}
