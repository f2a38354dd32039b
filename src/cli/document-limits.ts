/**
 * `serve` flags for the document store's limits: conversion time, worker heap, converted output, read
 * size and the watcher's maximum wait. Each maps to one `DocumentStoreOptions` field.
 */
import type { Command } from 'commander';
import type { DocumentStoreOptions } from '../documents/document-store.js';

/** The document-store options the CLI exposes. */
export type DocumentLimits = Pick<
  DocumentStoreOptions,
  'conversionTimeoutMs' | 'conversionHeapMb' | 'maxOutputChars' | 'maxReadChars' | 'watchMaxWaitMs'
>;

const FLAGS: ReadonlyArray<{ flag: string; key: keyof DocumentLimits; attribute: string; help: string }> = [
  {
    flag: '--conversion-timeout <ms>',
    key: 'conversionTimeoutMs',
    attribute: 'conversionTimeout',
    help: 'stop a conversion (PDF, DOCX, HTML) after this many ms (default 30000)',
  },
  {
    flag: '--conversion-heap <mib>',
    key: 'conversionHeapMb',
    attribute: 'conversionHeap',
    help: 'heap of each conversion worker thread in MiB (default 512)',
  },
  {
    flag: '--max-output-chars <n>',
    key: 'maxOutputChars',
    attribute: 'maxOutputChars',
    help: 'stop a conversion whose text passes n characters (default 10000000)',
  },
  {
    flag: '--max-read-chars <n>',
    key: 'maxReadChars',
    attribute: 'maxReadChars',
    help: 'most characters one read returns; longer documents are read in parts (default 100000)',
  },
  {
    flag: '--watch-max-wait <ms>',
    key: 'watchMaxWaitMs',
    attribute: 'watchMaxWait',
    help: 'under a steady stream of changes, tell clients at least this often (default 1000)',
  },
];

/** Adds the limit flags to a command. */
export function addDocumentLimitFlags(command: Command): Command {
  for (const { flag, help } of FLAGS) command.option(flag, help);
  return command;
}

/**
 * The limits given on the command line (flags not given are left out).
 * @throws Error naming the flag when a value is not a positive integer
 */
export function documentLimits(flags: Record<string, unknown>): DocumentLimits {
  const limits: DocumentLimits = {};
  for (const { flag, key, attribute } of FLAGS) {
    const raw = flags[attribute];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value <= 0)
      throw new Error(`${flag.split(' ')[0]} must be a positive integer, got "${String(raw)}"`);
    limits[key] = value;
  }
  return limits;
}
