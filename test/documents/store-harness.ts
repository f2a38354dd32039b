/**
 * Per-test DocumentStore in a fresh temporary folder, with every change event recorded.
 */
import { afterEach, beforeEach } from 'vitest';
import { DocumentStore, type DocumentChangeEvent, type DocumentStoreOptions } from '../../src/documents/index.js';
import type { DocumentStoreView } from '../../src/documents/document-store.js';
import { makeTempDir } from '../fixtures/document-builders.js';

/** What each test gets; the fields are replaced before every test. */
export interface StoreHarness {
  dir: string;
  store: DocumentStore;
  events: DocumentChangeEvent[];
}

/** Registers beforeEach/afterEach hooks creating (and closing / deleting) a store and its temp folder. */
export function useDocumentStore(options?: DocumentStoreOptions): StoreHarness {
  const harness = {} as StoreHarness;
  let cleanup: () => Promise<void> = async () => undefined;
  beforeEach(async () => {
    ({ dir: harness.dir, cleanup } = await makeTempDir());
    harness.store = new DocumentStore(options);
    harness.events = [];
    harness.store.onChange((event) => harness.events.push(event));
  });
  afterEach(async () => {
    await harness.store.close();
    await cleanup();
  });
  return harness;
}

/** The error `read` rejects with (it must reject), and how long it took (ms). */
export async function failure(read: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const start = performance.now();
  try {
    await read;
  } catch (error) {
    return { error, ms: performance.now() - start };
  }
  throw new Error('the read was expected to fail');
}

/** Polls until `predicate` holds (watch events arrive asynchronously), failing after 5 s with `events`. */
export async function until(predicate: () => boolean, events: readonly unknown[]): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out; events: ${JSON.stringify(events)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The store's read side with every `readFull` recorded (by URI) and, while `gate` is set, held until it
 * resolves: the index reads through it exactly as through the store.
 */
export function recordingView(target: DocumentStoreView) {
  const reads: string[] = [];
  const control = { gate: undefined as Promise<void> | undefined };
  const view: DocumentStoreView = {
    converters: target.converters,
    maxFileSizeBytes: target.maxFileSizeBytes,
    maxReadChars: target.maxReadChars,
    list: () => target.list(),
    folderRoots: () => target.folderRoots(),
    get: (uri: string) => target.get(uri),
    read: (uri: string) => target.read(uri),
    readFull: async (uri: string, options?: Parameters<DocumentStoreView['readFull']>[1]) => {
      reads.push(uri);
      await control.gate;
      return target.readFull(uri, options);
    },
    onChange: target.onChange.bind(target),
    watchReady: () => target.watchReady(),
    skipped: () => target.skipped(),
    onSkip: target.onSkip.bind(target),
  };
  /** Holds every read from now on until the returned function is called. */
  const hold = (): (() => void) => {
    let release = (): void => undefined;
    control.gate = new Promise<void>((resolve) => {
      release = () => {
        control.gate = undefined;
        resolve();
      };
    });
    return release;
  };
  return { view, reads, hold };
}
