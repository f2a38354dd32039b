/**
 * Runs converters under limits: those with a `worker` spec in a small pool of worker threads (piscina),
 * the others on the calling thread. A conversion over its wall time or heap is stopped by terminating its
 * worker (piscina replaces it); one over the output size is stopped by the converter or rejected after.
 */
import type { Piscina } from 'piscina';
import { ConversionLimitError } from '../../errors.js';
import type { ConvertedContent, Converter, ConverterInput } from '../converter.js';
import type { ConversionReply, ConversionTask } from './conversion-worker.js';
import { runnableModuleUrl, workerEntryUrl } from './worker-module.js';
import { nodeOs } from '../../lazy-module.js';

/** Default wall time of one conversion: 30 s. */
export const DEFAULT_CONVERSION_TIMEOUT_MS = 30_000;
/** Default old-generation heap of a conversion worker: 512 MiB. */
export const DEFAULT_CONVERSION_HEAP_MB = 512;
/** Default maximum converted text: 10,000,000 characters (about 20 MB in memory). */
export const DEFAULT_MAX_OUTPUT_CHARS = 10_000_000;

/** Limits and size of a {@link ConversionPool}. */
export interface ConversionPoolOptions {
  /** Worker threads at most (default: 2, or 1 on a machine with 1 or 2 cores). Further conversions wait their turn. */
  threads?: number;
  /** Wall time of one conversion in ms, counted from when a worker takes it (default 30,000). */
  timeoutMs?: number;
  /** Old-generation heap of each worker in MiB (`resourceLimits.maxOldGenerationSizeMb`, default 512). */
  heapMb?: number;
  /** Maximum converted text in characters (default 10,000,000); applies to inline converters too. */
  maxOutputChars?: number;
  /** An idle worker exits after this many ms (default 30,000); the next conversion starts a new one. */
  idleTimeoutMs?: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${value}`);
  return value;
}

/** A transferable copy-free view of `bytes` when it owns its whole buffer, else a copy. */
function transferable(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
}

/**
 * Converts files under wall-time, heap and output limits, off the main thread for every converter with a
 * `worker` spec (PDF, DOCX, HTML among the built-ins). Threads start on first use and exit when idle, so
 * a pool that is never used costs nothing; {@link close} ends them all.
 *
 * Why piscina: maintained (Node.js org members), per-task `AbortSignal` that terminates the busy worker
 * and starts a replacement, `resourceLimits` per worker, idle timeout, and unref'd idle workers.
 */
export class ConversionPool {
  readonly threads: number;
  readonly timeoutMs: number;
  readonly heapMb: number;
  readonly maxOutputChars: number;
  readonly idleTimeoutMs: number;
  #piscina: Piscina | undefined;
  #running = 0;
  readonly #waiting: Array<{ start: () => void; fail: (error: Error) => void }> = [];

  /** @throws RangeError when a limit is not a positive number */
  constructor(options: ConversionPoolOptions = {}) {
    const cores = nodeOs().availableParallelism();
    // Leave a core to the event loop: 1 thread on 1-2 cores, 2 from 3 cores.
    this.threads = Math.floor(positive(options.threads, cores > 2 ? 2 : 1, 'threads'));
    this.timeoutMs = positive(options.timeoutMs, DEFAULT_CONVERSION_TIMEOUT_MS, 'timeoutMs');
    this.heapMb = positive(options.heapMb, DEFAULT_CONVERSION_HEAP_MB, 'heapMb');
    this.maxOutputChars = Math.floor(positive(options.maxOutputChars, DEFAULT_MAX_OUTPUT_CHARS, 'maxOutputChars'));
    this.idleTimeoutMs = positive(options.idleTimeoutMs, 30_000, 'idleTimeoutMs');
  }

  /**
   * Converts one file: in a worker when the converter has a `worker` spec, else inline (no time or heap
   * limit can stop inline code; the output limit is checked after). `input.bytes` may be detached after
   * the call (transferred to the worker).
   * @throws ConversionLimitError `time`, `heap` or `output` (message names the limit, the file and the value)
   * @throws Error the converter's own failure (its message), or "the conversion pool is closed"
   */
  async convert(converter: Converter, input: ConverterInput): Promise<ConvertedContent> {
    const content =
      converter.worker === undefined
        ? await converter.convert({ ...input, maxOutputChars: this.maxOutputChars })
        : await this.#inWorker(converter.worker.module, converter.worker.exportName, input);
    if (content.kind === 'text' && content.text.length > this.maxOutputChars)
      throw new ConversionLimitError('output', input.path, this.maxOutputChars);
    return content;
  }

  /**
   * Ends every worker (running conversions fail with "the conversion pool is closed") and rejects waiting
   * ones. Idempotent. A later {@link convert} starts new workers.
   */
  async close(): Promise<void> {
    for (const waiter of this.#waiting.splice(0)) waiter.fail(new Error('the conversion pool is closed'));
    const piscina = this.#piscina;
    this.#piscina = undefined;
    await piscina?.destroy();
  }

  async #inWorker(module: string, exportName: string, input: ConverterInput): Promise<ConvertedContent> {
    const task: ConversionTask = {
      module: runnableModuleUrl(module),
      exportName,
      path: input.path,
      bytes: transferable(input.bytes),
      mimeType: input.mimeType,
      maxOutputChars: this.maxOutputChars,
    };
    await this.#turn();
    let pool: Piscina;
    try {
      pool = await this.#pool();
    } catch (error) {
      this.#release();
      throw error;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    try {
      const reply = (await pool.run(task, {
        signal: abort.signal,
        transferList: [task.bytes.buffer as ArrayBuffer],
      })) as ConversionReply;
      if (reply.ok) return reply.content;
      if ('limit' in reply) throw new ConversionLimitError('output', input.path, this.maxOutputChars);
      throw new Error(reply.message);
    } catch (error) {
      if (error instanceof ConversionLimitError) throw error;
      if (abort.signal.aborted) throw new ConversionLimitError('time', input.path, this.timeoutMs);
      if ((error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY')
        throw new ConversionLimitError('heap', input.path, this.heapMb, { cause: error });
      if (this.#piscina !== pool) throw new Error('the conversion pool is closed', { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
      this.#release();
    }
  }

  /** The piscina pool, made on first use (piscina itself is loaded then: most servers never convert). */
  async #pool(): Promise<Piscina> {
    if (this.#piscina === undefined) {
      const { Piscina } = await import('piscina');
      this.#piscina ??= new Piscina({
        filename: workerEntryUrl(import.meta.url),
        minThreads: 0,
        maxThreads: this.threads,
        idleTimeout: this.idleTimeoutMs,
        resourceLimits: { maxOldGenerationSizeMb: this.heapMb },
      });
      // A worker that dies with no task (e.g. out of memory after its task was aborted) is reported as an
      // 'error' event; unheard, it would crash the process. Its tasks, if any, are rejected on their own.
      this.#piscina.on('error', () => undefined);
    }
    return this.#piscina;
  }

  /** Waits for a free thread, so the time limit counts running time, not time in the queue. */
  async #turn(): Promise<void> {
    if (this.#running < this.threads) {
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
