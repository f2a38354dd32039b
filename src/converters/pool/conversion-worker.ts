/**
 * The entry of a conversion child process (forked by `conversion-process.ts`): for each task received on
 * the IPC channel, imports the converter it names (once per process), converts, and answers a plain
 * object, so that the reason of a failure crosses the process boundary intact.
 */
import { BUILTIN_CONVERTERS_MODULE, type ConvertedContent, type Converter } from '../converter.js';
import { DocxConverter } from '../docx-converter.js';
import { HtmlConverter } from '../html-converter.js';
import { PdfConverter } from '../pdf-converter.js';
import type { ConversionLimit, ConversionLimitError } from '../../errors.js';

/** What the pool sends (over the IPC channel, with the `advanced` serialization: bytes stay bytes). */
export interface ConversionTask {
  /** File URL of a JavaScript module (already mapped by `runnableModuleUrl`). */
  module: string;
  exportName: string;
  path: string;
  bytes: Uint8Array;
  mimeType: string;
  maxOutputChars: number;
  /** Most bytes an archive (DOCX and other zip-based formats) may inflate to. */
  maxInflatedBytes: number;
}

/** What the worker answers. */
export type ConversionReply =
  | { ok: true; content: ConvertedContent }
  | { ok: false; limit: ConversionLimit; value: number }
  | { ok: false; message: string };

// Belt and braces: the pool never connects this process's stdout to the server's (a stdio server speaks
// JSON-RPC there), and what a parser prints goes to stderr, where the pool passes it on to the log.
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
    const { path, bytes, mimeType, maxOutputChars, maxInflatedBytes } = task;
    const content = await converter.convert({ path, bytes, mimeType, maxOutputChars, maxInflatedBytes });
    if (content.kind === 'text' && content.text.length > maxOutputChars)
      return { ok: false, limit: 'output', value: maxOutputChars };
    return { ok: true, content };
  } catch (error) {
    // By code, not class: a custom converter may bundle its own copy of the toolkit's errors.
    const limited = error as Partial<ConversionLimitError> | null;
    if (limited?.code === 'CONVERSION_LIMIT') {
      const limit = limited.limit === 'inflated' ? 'inflated' : 'output';
      return { ok: false, limit, value: limit === 'inflated' ? task.maxInflatedBytes : task.maxOutputChars };
    }
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

// Run as a child process: answer each task in turn (the pool sends one at a time).
if (typeof process.send === 'function') {
  process.on('message', (task: ConversionTask) => {
    void convert(task).then((reply) => process.send?.(reply));
  });
  // The server went away (its end of the channel closed): nothing is left to convert for.
  process.on('disconnect', () => process.exit(0));
}
