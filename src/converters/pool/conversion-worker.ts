/**
 * The task handler of a conversion worker thread (loaded by piscina): imports the converter named by the
 * task (once per worker), converts, and answers a plain object, so that the reason of a failure crosses
 * the thread boundary intact.
 */
import { BUILTIN_CONVERTERS_MODULE, type ConvertedContent, type Converter } from '../converter.js';
import { DocxConverter } from '../docx-converter.js';
import { HtmlConverter } from '../html-converter.js';
import { PdfConverter } from '../pdf-converter.js';
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

/** The built-in converters with a worker spec; each loads its parser (pdf.js, mammoth, turndown) on first use. */
const BUILT_IN: Record<string, new () => Converter> = { PdfConverter, DocxConverter, HtmlConverter };

const converters = new Map<string, Promise<Converter>>();

async function load(module: string, exportName: string): Promise<Converter> {
  const key = `${module}#${exportName}`;
  let found = converters.get(key);
  if (found === undefined) {
    const exportsOf: Promise<Record<string, unknown>> =
      module === BUILTIN_CONVERTERS_MODULE ? Promise.resolve(BUILT_IN) : import(module);
    found = exportsOf.then((exports) => {
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
