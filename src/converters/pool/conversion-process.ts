/**
 * One conversion child process: a `node` forked on the worker entry with its own V8 heap limit
 * (`--max-old-space-size`), talking over an IPC channel, one conversion at a time.
 *
 * Why a process and not a worker thread: a worker thread shares the server's process. Its heap limit is
 * only a soft one (Node gives a worker at its limit 16 MiB of leeway, then V8 aborts the whole process on
 * any larger allocation: one decoded 300 MiB string ends the server), and everything it allocates outside
 * the V8 heap (inflated zip entries, pdf.js buffers) is the server's RSS. A child process that runs out of
 * memory dies alone, and its memory is its own. Why not tinypool's `child_process` runtime: it pipes the
 * child's stdout into the server's (a stdio server speaks JSON-RPC there) and reports every exit as
 * "Worker exited unexpectedly", so an out-of-memory death cannot be told from a crash.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ConversionReply, ConversionTask } from './conversion-worker.js';

/** How a conversion process ended a task other than by answering it. */
export type ProcessDeath = { kind: 'heap' } | { kind: 'crash'; detail: string };

/** The last bytes of the child's stderr kept to tell why it died. */
const STDERR_TAIL = 4096;
/** What V8 prints when a heap limit ends a process. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed/i;

/** Thrown by {@link ConversionProcess.run} when the child died during the conversion. */
export class ConversionProcessDied extends Error {
  constructor(readonly death: ProcessDeath) {
    super(death.kind === 'heap' ? 'the conversion process ran out of heap' : death.detail);
    this.name = 'ConversionProcessDied';
  }
}

/**
 * A forked conversion process. `run` sends one task and resolves with the child's reply; it rejects with
 * {@link ConversionProcessDied} when the child exits first (out of heap, killed, crashed). A dead process
 * is never reused: {@link alive} turns false and the pool forks a new one.
 */
export class ConversionProcess {
  readonly #child: ChildProcess;
  #stderrTail = '';
  #pending: { resolve: (reply: ConversionReply) => void; reject: (error: Error) => void } | undefined;
  #exited = false;
  readonly #exit: Promise<void>;

  /**
   * @param entryUrl file URL of the built worker entry (`dist/converters/conversion-worker.js`)
   * @param heapMb old-generation heap of the child in MiB
   */
  constructor(entryUrl: string, heapMb: number) {
    this.#child = fork(fileURLToPath(entryUrl), [], {
      // Only the heap flag: the server's own flags (a test runner's loaders, --inspect) are not the child's.
      execArgv: [`--max-old-space-size=${Math.max(1, Math.floor(heapMb))}`],
      // The child's stdout never reaches ours (stdio servers speak JSON-RPC there); stderr is passed on,
      // each line marked as the conversion process's.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    // Each line is marked as the conversion process's: V8's "FATAL ERROR ... heap out of memory" there
    // is not the server dying.
    const prefix = `[mcp-toolkit conversion process ${this.#child.pid ?? '?'}] `;
    let lineStart = true;
    this.#child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.#stderrTail = (this.#stderrTail + text).slice(-STDERR_TAIL);
      const marked = (lineStart ? prefix : '') + text.replace(/\n(?=.)/g, `\n${prefix}`);
      lineStart = text.endsWith('\n');
      process.stderr.write(marked);
    });
    this.#child.on('message', (message: ConversionReply) => {
      const pending = this.#pending;
      this.#pending = undefined;
      pending?.resolve(message);
    });
    // A failed fork or a broken channel ends in 'exit' too; the error itself adds nothing to act on.
    this.#child.on('error', () => undefined);
    this.#exit = new Promise((resolve) => {
      // 'close', not 'exit': by then stderr has been read to its end, V8's last words included.
      this.#child.once('close', (code, signal) => {
        this.#exited = true;
        const pending = this.#pending;
        this.#pending = undefined;
        pending?.reject(new ConversionProcessDied(this.#death(code, signal)));
        resolve();
      });
    });
    this.idle();
  }

  /** False once the child has exited or been killed. */
  get alive(): boolean {
    return !this.#exited && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Converts one task in the child. The task's bytes are copied over the channel. */
  run(task: ConversionTask): Promise<ConversionReply> {
    if (!this.alive) return Promise.reject(new ConversionProcessDied({ kind: 'crash', detail: 'the process exited' }));
    for (const handle of this.#handles()) handle.ref?.();
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#child.send(task, (error) => {
        if (error && this.#pending?.reject === reject) {
          this.#pending = undefined;
          reject(new ConversionProcessDied({ kind: 'crash', detail: `the task could not be sent: ${error.message}` }));
        }
      });
    });
  }

  /** Lets the server's event loop end while this process waits for work. */
  idle(): void {
    for (const handle of this.#handles()) handle.unref?.();
  }

  /** What keeps the event loop alive: the process, its IPC channel and its stderr pipe. */
  #handles(): Array<{ ref?: () => void; unref?: () => void }> {
    const { channel, stderr } = this.#child as { channel?: object | null; stderr: object | null };
    return [this.#child, channel ?? {}, stderr ?? {}] as Array<{ ref?: () => void; unref?: () => void }>;
  }

  /**
   * Kills the child (SIGKILL: a converter spinning in a loop gets no say) and waits until it has exited. The
   * wait holds the event loop (an idle process is unref'd): else an app awaiting `stop()` at its top level, with
   * nothing else pending, ended with exit code 13 before the exit arrived.
   */
  async kill(): Promise<void> {
    if (!this.#exited) for (const handle of this.#handles()) handle.ref?.();
    if (this.alive) this.#child.kill('SIGKILL');
    await this.#exit;
  }

  #death(code: number | null, signal: NodeJS.Signals | null): ProcessDeath {
    if (OUT_OF_MEMORY.test(this.#stderrTail)) return { kind: 'heap' };
    const how = signal === null ? `exit code ${code}` : `signal ${signal}`;
    return { kind: 'crash', detail: `the conversion process ended unexpectedly (${how})` };
  }
}
