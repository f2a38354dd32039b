/**
 * Picks the converter for a file by MIME type and extension.
 */
import type { Converter } from './converter.js';
import { BinaryConverter } from './binary-converter.js';
import { DocxConverter } from './docx-converter.js';
import { HtmlConverter } from './html-converter.js';
import { essenceOf, knownExtensions, mimeTypeFromExtension } from './mime.js';
import { PdfConverter } from './pdf-converter.js';
import { TextConverter } from './text-converter.js';

/** Normalizes an extension: lower case, no leading dot. */
function normalizeExtension(extension: string): string {
  return extension.replace(/^\./, '').toLowerCase();
}

/**
 * A set of converters looked up by MIME type and extension.
 *
 * Lookup order in {@link find}, most specific first: an exact MIME type (`application/pdf`), then an
 * extension claim (`docx`), then a type wildcard (`text/*`), then for a structured-syntax suffix
 * (`application/geo+json`) the converter of its base type (`application/json`; also `+xml`, `+yaml`),
 * then `*\/*`, then the built-in binary fallback. Within each kind, a later {@link register} overrides
 * an earlier one for the same key.
 */
export class ConverterRegistry {
  readonly #exact = new Map<string, Converter>();
  readonly #byExtension = new Map<string, Converter>();
  readonly #wildcard = new Map<string, Converter>();
  readonly #fallback: Converter = new BinaryConverter();
  #extensions: string[] | undefined;
  readonly #supports = new Map<string, boolean>();

  /** Adds a converter; it takes over every MIME type and extension it lists from earlier ones. Returns `this`. */
  register(converter: Converter): this {
    for (const type of converter.mimeTypes) {
      const key = essenceOf(type);
      if (key.endsWith('/*')) this.#wildcard.set(key, converter);
      else this.#exact.set(key, converter);
    }
    for (const ext of converter.extensions ?? []) this.#byExtension.set(normalizeExtension(ext), converter);
    this.#extensions = undefined;
    this.#supports.clear();
    return this;
  }

  /** The converter that claims this MIME type / extension, or `undefined` when only the fallback would. */
  match(mimeType: string, extension?: string): Converter | undefined {
    const type = essenceOf(mimeType);
    const ext = extension === undefined ? '' : normalizeExtension(extension);
    const suffix = /\+(json|xml|yaml)$/.exec(type)?.[1];
    return (
      this.#exact.get(type) ??
      (ext === '' ? undefined : this.#byExtension.get(ext)) ??
      this.#wildcard.get(`${type.split('/', 1)[0] ?? ''}/*`) ??
      (suffix === undefined ? undefined : this.#exact.get(`application/${suffix}`)) ??
      this.#wildcard.get('*/*')
    );
  }

  /**
   * The converter for a file: see the class comment for the order. Never fails: anything unclaimed goes
   * to the binary converter (a blob with the given MIME type). `mimeType` may carry parameters.
   */
  find(mimeType: string, extension?: string): Converter {
    return this.match(mimeType, extension) ?? this.#fallback;
  }

  /**
   * Whether `ext` (lower case, no leading dot, as a folder scan finds it) is in {@link supportedExtensions}:
   * the default filter of a folder scan, answered one extension at a time without the MIME database for
   * the common ones.
   */
  supportsExtension(ext: string): boolean {
    if (this.#byExtension.has(ext)) return true;
    // Known extensions are lower case without dots (the database's, the overrides): others only directly.
    if (ext === '' || ext.includes('.') || ext !== ext.toLowerCase()) return false;
    let supported = this.#supports.get(ext);
    if (supported === undefined) {
      const type = mimeTypeFromExtension(ext);
      supported = type !== undefined && this.match(type, ext) !== undefined;
      this.#supports.set(ext, supported);
    }
    return supported;
  }

  /**
   * Every extension (lower case, no dot, sorted) a registered converter claims, directly or through its
   * MIME types. Recomputed only after {@link register}. Enumerating them loads the MIME database;
   * {@link supportsExtension} answers for one extension without it.
   */
  supportedExtensions(): string[] {
    if (this.#extensions === undefined) {
      const found = new Set(this.#byExtension.keys());
      for (const ext of knownExtensions()) {
        const type = mimeTypeFromExtension(ext);
        if (type !== undefined && this.match(type, ext) !== undefined) found.add(ext);
      }
      this.#extensions = [...found].sort();
    }
    return [...this.#extensions];
  }
}

/**
 * A registry with the built-in converters: binary (images, audio), text (text/*, JSON, XML, YAML, source
 * code), PDF (text per page), HTML (Markdown) and DOCX (Markdown).
 */
export function createDefaultConverters(): ConverterRegistry {
  return new ConverterRegistry()
    .register(new BinaryConverter())
    .register(new TextConverter())
    .register(new PdfConverter())
    .register(new HtmlConverter())
    .register(new DocxConverter());
}
