/**
 * The child processes of a {@link ConversionPool}: at most `threads` at once, each conversion under the
 * pool's wall time and heap, idle ones kept for the next conversion until `idleTimeoutMs`. Loaded with the
 * first conversion that needs a process, so a server that converts nothing never loads process code.
 */
import { ConversionLimitError } from '../../errors.js';
import type { ConvertedContent, ConverterInput } from '../converter.js';
import { ConversionProcess, ConversionProcessDied } from './conversion-process.js';
import type { ConversionPool } from './conversion-pool.js';
import type { ConversionReply, ConversionTask } from './conversion-worker.js';
import { runnableModuleUrl, workerEntryUrl } from './worker-module.js';

/** The pool's limits that apply to its processes (read on each use: `threads` is computed on first read). */
type ProcessLimits = Pick<ConversionPool, 'threads' | 'timeoutMs' | 'heapMb' | 'idleTimeoutMs'>;

/** An idle conversion process and the timer that ends it. */
interface IdleProcess {
  process: ConversionProcess;
  timer: ReturnType<typeof setTimeout>;
}

/** Runs conversions in child processes; see {@link ConversionPool} for the limits and errors. */
export class ConversionProcesses {
  readonly #idle: IdleProcess[] = [];
  readonly #busy = new Set<ConversionProcess>();
  #closed = 0;
  #running = 0;
  readonly #waiting: Array<{ start: () => void; fail: (error: Error) => void }> = [];

  constructor(private readonly limits: ProcessLimits) {}

  /**
   * Ends every process (running conversions fail with "the conversion pool is closed") and rejects
   * waiting ones. Idempotent. A later {@link run} starts new processes.
   */
  async close(): Promise<void> {
    this.#closed += 1;
    for (const waiter of this.#waiting.splice(0)) waiter.fail(new Error('the conversion pool is closed'));
    const all = [...this.#busy, ...this.#idle.splice(0).map((idle) => (clearTimeout(idle.timer), idle.process))];
    this.#busy.clear();
    await Promise.all(all.map((process) => process.kill()));
  }

  /** Converts `input` with the converter `module` exports as `exportName`, in a conversion process. */
  async run(
    module: string,
    exportName: string,
    input: ConverterInput & { maxOutputChars: number; maxInflatedBytes: number },
  ): Promise<ConvertedContent> {
    const task: ConversionTask = {
      module: runnableModuleUrl(module),
      exportName,
      path: input.path,
      bytes: input.bytes,
      mimeType: input.mimeType,
      maxOutputChars: input.maxOutputChars,
      maxInflatedBytes: input.maxInflatedBytes,
    };
    await this.#turn();
    const generation = this.#closed;
    let process: ConversionProcess;
    try {
      process = this.#take();
    } catch (error) {
      this.#release();
      throw error;
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void process.kill();
    }, this.limits.timeoutMs);
    try {
      return this.#answer(await process.run(task), input);
    } catch (error) {
      if (error instanceof ConversionLimitError) throw error;
      if (timedOut) throw new ConversionLimitError('time', input.path, this.limits.timeoutMs);
      if (this.#closed !== generation) throw new Error('the conversion pool is closed', { cause: error });
      if (error instanceof ConversionProcessDied && error.death.kind === 'heap')
        throw new ConversionLimitError('heap', input.path, this.limits.heapMb, { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      this.#give(process, generation);
      this.#release();
    }
  }

  #answer(reply: ConversionReply, input: ConverterInput): ConvertedContent {
    if (reply.ok) return reply.content;
    if ('limit' in reply) throw new ConversionLimitError(reply.limit, input.path, reply.value);
    throw new Error(reply.message);
  }

  /** An idle live process, or a new one. @throws Error when the worker entry is not built */
  #take(): ConversionProcess {
    for (let idle = this.#idle.pop(); idle !== undefined; idle = this.#idle.pop()) {
      clearTimeout(idle.timer);
      if (idle.process.alive) {
        this.#busy.add(idle.process);
        return idle.process;
      }
    }
    const process = new ConversionProcess(workerEntryUrl(import.meta.url), this.limits.heapMb);
    this.#busy.add(process);
    return process;
  }

  /** Back to the idle set (ended after `idleTimeoutMs`), unless it died or the pool was closed meanwhile. */
  #give(process: ConversionProcess, generation: number): void {
    this.#busy.delete(process);
    if (!process.alive || this.#closed !== generation) {
      void process.kill();
      return;
    }
    process.idle();
    const idle: IdleProcess = {
      process,
      timer: setTimeout(() => {
        const at = this.#idle.indexOf(idle);
        if (at >= 0) this.#idle.splice(at, 1);
        void process.kill();
      }, this.limits.idleTimeoutMs),
    };
    idle.timer.unref();
    this.#idle.push(idle);
  }

  /** Waits for a free process, so the time limit counts running time, not time in the queue. */
  async #turn(): Promise<void> {
    if (this.#running < this.limits.threads) {
      this.#running += 1;
      return;
    }
    await new Promise<void>((start, fail) => this.#waiting.push({ start, fail }));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next.start();
    else this.#running -= 1;
  }
}
