/**
 * Runs converters under limits: those with a `worker` spec in a small pool of child processes, the others
 * on the calling thread. A conversion over its wall time is stopped by killing its process; one over its
 * heap ends its own process (never the server); one over the output or inflated size is stopped by the
 * converter or rejected after. A dead process is replaced by a new one on the next conversion.
 */
import { ConversionLimitError, InvalidOptionsError } from '../../errors.js';
import {
  DEFAULT_MAX_INFLATED_BYTES,
  type ConvertedContent,
  type Converter,
  type ConverterInput,
  type ConverterWorkerSpec,
} from '../converter.js';
import type { ConversionProcesses } from './conversion-processes.js';
import { loadOnce, nodeOs } from '../../lazy-module.js';

/** Default wall time of one conversion: 30 s. */
export const DEFAULT_CONVERSION_TIMEOUT_MS = 30_000;
/** Default old-generation heap of a conversion worker: 512 MiB. */
export const DEFAULT_CONVERSION_HEAP_MB = 512;
/** Default maximum converted text: 10,000,000 characters (about 20 MB in memory). */
export const DEFAULT_MAX_OUTPUT_CHARS = 10_000_000;
export { DEFAULT_MAX_INFLATED_BYTES };

/** Limits and size of a {@link ConversionPool}. */
export interface ConversionPoolOptions {
  /** Conversion processes at most (default: 2, or 1 on a machine with 1 or 2 cores). Further conversions wait their turn. */
  threads?: number;
  /** Wall time of one conversion in ms, counted from when a worker takes it (default 30,000). */
  timeoutMs?: number;
  /** Old-generation heap of each conversion process in MiB (`--max-old-space-size`, default 512). */
  heapMb?: number;
  /**
   * Maximum converted text in characters (default 10,000,000); applies to inline converters too. A
   * conversion may always produce as many characters as its file has bytes: the limit stops expansion
   * (a small file that converts to a huge text), never a file the file-size limit admits.
   */
  maxOutputChars?: number;
  /**
   * Most bytes an archive may inflate to, checked on the sizes its central directory declares and on
   * the bytes actually inflated (default 100 MiB): `inflated`. Passed to converters as
   * `ConverterInput.maxInflatedBytes`; the DOCX converter enforces it.
   */
  maxInflatedBytes?: number;
  /** An idle process exits after this many ms (default 30,000); the next conversion starts a new one. */
  idleTimeoutMs?: number;
}

// Not through option-values.ts: this module is in the chunk the conversion processes load (scripts/bundle.mjs).
function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    const received = typeof value === 'string' ? JSON.stringify(value) : String(value);
    const message = `ConversionPool option ${name} must be a positive number, got ${received}.`;
    throw new InvalidOptionsError('ConversionPool option', [], message, {
      option: name,
      expected: 'a positive number',
      received,
    });
  }
  return value;
}

/**
 * Converts files under wall-time, heap, output and inflated-size limits, in child processes for every
 * converter with a `worker` spec (PDF, DOCX, HTML among the built-ins). Processes start on first use and
 * exit when idle, so a pool that is never used costs nothing; {@link close} ends them all. Whatever a
 * conversion does (loop, exhaust its heap, crash), it ends only its own process: the server's memory and
 * life are its own (see `conversion-process.ts` for why processes rather than worker threads).
 */
export class ConversionPool {
  #threads: number | undefined;
  readonly timeoutMs: number;
  readonly heapMb: number;
  readonly maxOutputChars: number;
  readonly maxInflatedBytes: number;
  readonly idleTimeoutMs: number;
  /** The child processes, loaded with the first conversion that needs one (`conversion-processes.ts`). */
  readonly #processes = loadOnce(() =>
    import('./conversion-processes.js').then(({ ConversionProcesses }) => (this.#made = new ConversionProcesses(this))),
  );
  #made: ConversionProcesses | undefined;
  #closed = 0;

  /** @throws InvalidOptionsError when a limit is not a positive number */
  constructor(options: ConversionPoolOptions = {}) {
    if (options.threads !== undefined) this.#threads = Math.floor(positive(options.threads, 1, 'threads'));
    this.timeoutMs = positive(options.timeoutMs, DEFAULT_CONVERSION_TIMEOUT_MS, 'timeoutMs');
    this.heapMb = positive(options.heapMb, DEFAULT_CONVERSION_HEAP_MB, 'heapMb');
    this.maxOutputChars = Math.floor(positive(options.maxOutputChars, DEFAULT_MAX_OUTPUT_CHARS, 'maxOutputChars'));
    this.maxInflatedBytes = Math.floor(
      positive(options.maxInflatedBytes, DEFAULT_MAX_INFLATED_BYTES, 'maxInflatedBytes'),
    );
    this.idleTimeoutMs = positive(options.idleTimeoutMs, 30_000, 'idleTimeoutMs');
  }

  /**
   * How many conversion processes may run at once. The default is read on first use: `node:os` goes
   * through `createRequire`, which every server would otherwise pay at construction (bench W0).
   */
  get threads(): number {
    // Leave a core to the event loop: 1 process on 1-2 cores, 2 from 3 cores.
    return (this.#threads ??= nodeOs().availableParallelism() > 2 ? 2 : 1);
  }

  /**
   * Converts one file: in a child process when the converter has a `worker` spec, else inline (no time
   * or heap limit can stop inline code; the output limit is checked after). The output limit is
   * `max(maxOutputChars, input.bytes.length)`: converting never has to shrink a file.
   * @throws ConversionLimitError `time`, `heap`, `output` or `inflated` (message names the limit, the file and the value)
   * @throws Error the converter's own failure (its message), "the conversion pool is closed", or
   *   "the conversion process ended unexpectedly (...)" when it crashed for another reason than its heap
   */
  async convert(converter: Converter, input: ConverterInput): Promise<ConvertedContent> {
    const maxOutputChars = Math.max(this.maxOutputChars, input.bytes.length);
    const limits = { maxOutputChars, maxInflatedBytes: this.maxInflatedBytes };
    const content =
      converter.worker === undefined
        ? await converter.convert({ ...input, ...limits })
        : await this.#inProcess(converter.worker, { ...input, ...limits });
    if (content.kind === 'text' && content.text.length > maxOutputChars)
      throw new ConversionLimitError('output', input.path, maxOutputChars);
    return content;
  }

  /**
   * Ends every process (running conversions fail with "the conversion pool is closed") and rejects
   * waiting ones. Idempotent. A later {@link convert} starts new processes.
   */
  async close(): Promise<void> {
    this.#closed += 1;
    await this.#made?.close();
  }

  async #inProcess(
    worker: ConverterWorkerSpec,
    input: ConverterInput & { maxOutputChars: number; maxInflatedBytes: number },
  ): Promise<ConvertedContent> {
    const generation = this.#closed;
    const processes = await this.#processes();
    if (this.#closed !== generation) throw new Error('the conversion pool is closed'); // closed while it loaded
    return processes.run(worker.module, worker.exportName, input);
  }
}
