/**
 * `serve` flags for every documented document limit: file size, conversion time, heap, output and
 * inflated size, conversion processes, read size, cache, watcher timing and the `list_documents` page.
 * Each maps to one `DocumentStoreOptions` field, or to `DocumentToolsOptions.listPageSize`.
 */
import type { Command } from 'commander';
import { MAX_CONVERSION_HEAP_MB } from '../documents/document-options.js';
import type { DocumentStoreOptions } from '../documents/document-store.js';
import { MAX_TIMER_MS } from '../option-values.js';
import { flagNumber } from './flag-parsers.js';

/** The limits the CLI exposes: document-store options plus the `list_documents` page size. */
export type DocumentLimits = Pick<
  DocumentStoreOptions,
  | 'maxFileSizeBytes'
  | 'conversionTimeoutMs'
  | 'conversionHeapMb'
  | 'maxOutputChars'
  | 'maxInflatedBytes'
  | 'conversionThreads'
  | 'maxReadChars'
  | 'cacheMaxBytes'
  | 'watchDebounceMs'
  | 'watchMaxWaitMs'
> & {
  /** Most documents one `list_documents` call returns (`DocumentToolsOptions.listPageSize`). */
  listPageSize?: number;
};

const MIB = 1024 * 1024;

interface Flag {
  flag: string;
  key: keyof DocumentLimits;
  attribute: string;
  help: string;
  /** The flag is in MiB, the option in bytes. */
  mib?: true;
  /** 0 is a valid value (it turns the feature off). */
  zero?: true;
  /** The largest value, in the flag's unit, that the option takes (a timer's ms, a heap size). */
  max?: number;
}

const FLAGS: readonly Flag[] = [
  {
    flag: '--max-file-size <mib>',
    key: 'maxFileSizeBytes',
    attribute: 'maxFileSize',
    mib: true,
    help: 'larger files are left out of the folder (named in the banner and the log) (default 20)',
  },
  {
    flag: '--conversion-timeout <ms>',
    key: 'conversionTimeoutMs',
    attribute: 'conversionTimeout',
    max: MAX_TIMER_MS,
    help: 'stop a conversion (PDF, DOCX, HTML) after this many ms (default 30000)',
  },
  {
    flag: '--conversion-heap <mib>',
    key: 'conversionHeapMb',
    attribute: 'conversionHeap',
    max: MAX_CONVERSION_HEAP_MB,
    help: 'heap of each conversion process in MiB (default 512)',
  },
  {
    flag: '--max-output-chars <n>',
    key: 'maxOutputChars',
    attribute: 'maxOutputChars',
    help: 'stop a conversion whose text passes n characters and its file size in bytes (default 10000000)',
  },
  {
    flag: '--max-inflated-size <mib>',
    key: 'maxInflatedBytes',
    attribute: 'maxInflatedSize',
    mib: true,
    help: 'refuse an archive (DOCX) that inflates past this many MiB (default 100)',
  },
  {
    flag: '--conversion-processes <n>',
    key: 'conversionThreads',
    attribute: 'conversionProcesses',
    help: 'conversions running at once, each in its own process (default 2, 1 on 1-2 cores)',
  },
  {
    flag: '--max-read-chars <n>',
    key: 'maxReadChars',
    attribute: 'maxReadChars',
    help: 'most characters one read returns; longer documents are read in parts (default 100000)',
  },
  {
    flag: '--cache-size <mib>',
    key: 'cacheMaxBytes',
    attribute: 'cacheSize',
    mib: true,
    zero: true,
    help: 'memory for converted documents in MiB; 0 turns the cache off (default 64)',
  },
  {
    flag: '--watch-debounce <ms>',
    key: 'watchDebounceMs',
    attribute: 'watchDebounce',
    max: MAX_TIMER_MS,
    help: 'quiet time before a burst of changes on disk is reported (default 100)',
  },
  {
    flag: '--watch-max-wait <ms>',
    key: 'watchMaxWaitMs',
    attribute: 'watchMaxWait',
    max: MAX_TIMER_MS,
    help: 'under a steady stream of changes, tell clients at least this often (default 1000)',
  },
  {
    flag: '--list-page-size <n>',
    key: 'listPageSize',
    attribute: 'listPageSize',
    help: 'most documents one list_documents call returns; the rest come page by page (default 100)',
  },
];

/** The limit flags' long names without dashes (`max-file-size`, ...): each takes one value. */
export function documentLimitFlagNames(): string[] {
  return FLAGS.map(({ flag }) => /--([a-z][a-z-]*)/.exec(flag)![1]!);
}

/** Adds the limit flags to a command. */
export function addDocumentLimitFlags(command: Command): Command {
  for (const { flag, help } of FLAGS) command.option(flag, help);
  return command;
}

/**
 * The limits given on the command line (flags not given are left out); MiB flags are turned into bytes.
 * @throws Error naming the flag when a value is not a positive integer (or 0 where 0 turns a feature off), or is over
 *   what the option takes (a timer's 2^31-1 ms, a whole number of bytes)
 */
export function documentLimits(flags: Record<string, unknown>): DocumentLimits {
  const limits: DocumentLimits = {};
  for (const { flag, key, attribute, mib, zero, max } of FLAGS) {
    const raw = flags[attribute];
    if (raw === undefined) continue;
    const value = flagNumber(String(raw));
    const largest = max ?? Math.floor(Number.MAX_SAFE_INTEGER / (mib ? MIB : 1)); // bytes stay whole numbers
    if (!Number.isInteger(value) || value < 0 || (value === 0 && !zero) || value > largest) {
      const what = zero ? 'a non-negative integer' : 'a positive integer';
      throw new Error(
        `${flag.split(' ')[0]} must be ${what}${max === undefined ? '' : ` <= ${max}`}, got "${String(raw)}"`,
      );
    }
    limits[key] = mib ? value * MIB : value;
  }
  return limits;
}
