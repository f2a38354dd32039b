/**
 * The task handler of a conversion worker thread (loaded by piscina): imports the converter named by the
 * task (once per worker), converts, and answers a plain object, so that the reason of a failure crosses
 * the thread boundary intact.
 */
import type { ConvertedContent, Converter } from '../converter.js';
import type { ConversionLimitError } from '../../errors.js';

/** What the pool sends. `bytes` is transferred (the sender's copy is detached). */
export interface ConversionTask {
  /** File URL of a JavaScript module (already mapped by `runnableModuleUrl`). */
  module: string;
  exportName: string;
  path: string;
  bytes: Uint8Array;
  mimeType: string;
  maxOutputChars: number;
}

/** What the worker answers. */
export type ConversionReply =
  { ok: true; content: ConvertedContent } | { ok: false; limit: 'output' } | { ok: false; message: string };

// stdio servers speak JSON-RPC on stdout, and a worker's stdout is piped into the process's: anything a
// parser prints goes to stderr instead.
// eslint-disable-next-line no-console -- redirecting console output is the point here
console.log = console.info = console.debug = console.error;
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

const converters = new Map<string, Promise<Converter>>();

async function load(module: string, exportName: string): Promise<Converter> {
  const key = `${module}#${exportName}`;
  let found = converters.get(key);
  if (found === undefined) {
    found = import(module).then((exports: Record<string, unknown>) => {
      const Class = exports[exportName];
      if (typeof Class !== 'function') throw new Error(`${module} has no exported class "${exportName}"`);
      return new (Class as new () => Converter)();
    });
    converters.set(key, found);
    found.catch(() => converters.delete(key));
  }
  return found;
}

/** Runs one conversion (see {@link ConversionTask}); never throws. */
export default async function convert(task: ConversionTask): Promise<ConversionReply> {
  try {
    const converter = await load(task.module, task.exportName);
    const { path, bytes, mimeType, maxOutputChars } = task;
    const content = await converter.convert({ path, bytes, mimeType, maxOutputChars });
    if (content.kind === 'text' && content.text.length > maxOutputChars) return { ok: false, limit: 'output' };
    return { ok: true, content };
  } catch (error) {
    // By code, not class: a custom converter may bundle its own copy of the toolkit's errors.
    if ((error as Partial<ConversionLimitError> | null)?.code === 'CONVERSION_LIMIT')
      return { ok: false, limit: 'output' };
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
