/**
 * MIME type detection: by extension (the `mime-types` database with fixes for source code and
 * config files) and by content (`file-type` signatures plus a text/binary heuristic).
 */
import path from 'node:path';
import { lazyRequire } from '../lazy-module.js';

// Loaded on first use: a server without documents never pays for the MIME database or the sniffer.
const mimeDb = lazyRequire<typeof import('mime-types')>('mime-types');

/** Extensions whose `mime-types` answer is wrong or missing for the files people keep in document folders. */
const EXTENSION_OVERRIDES: Readonly<Record<string, string>> = {
  ts: 'text/typescript',
  mts: 'text/typescript',
  cts: 'text/typescript',
  tsx: 'text/tsx',
  cjs: 'text/javascript',
  py: 'text/x-python',
  pyi: 'text/x-python',
  rs: 'text/x-rust',
  go: 'text/x-go',
  java: 'text/x-java',
  kt: 'text/x-kotlin',
  kts: 'text/x-kotlin',
  scala: 'text/x-scala',
  groovy: 'text/x-groovy',
  gradle: 'text/x-groovy',
  c: 'text/x-c',
  h: 'text/x-c',
  cpp: 'text/x-c++',
  cc: 'text/x-c++',
  cxx: 'text/x-c++',
  hpp: 'text/x-c++',
  hh: 'text/x-c++',
  cs: 'text/x-csharp',
  swift: 'text/x-swift',
  rb: 'text/x-ruby',
  php: 'text/x-php',
  pl: 'text/x-perl',
  lua: 'text/x-lua',
  r: 'text/x-r',
  dart: 'text/x-dart',
  ex: 'text/x-elixir',
  exs: 'text/x-elixir',
  erl: 'text/x-erlang',
  hs: 'text/x-haskell',
  clj: 'text/x-clojure',
  zig: 'text/x-zig',
  jl: 'text/x-julia',
  vue: 'text/x-vue',
  svelte: 'text/x-svelte',
  sql: 'text/x-sql',
  graphql: 'text/x-graphql',
  gql: 'text/x-graphql',
  proto: 'text/x-protobuf',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  zsh: 'text/x-shellscript',
  fish: 'text/x-shellscript',
  ps1: 'text/x-powershell',
  bat: 'text/x-bat',
  cmd: 'text/x-bat',
  toml: 'text/x-toml',
  ini: 'text/x-ini',
  cfg: 'text/x-ini',
  conf: 'text/plain',
  properties: 'text/x-java-properties',
  env: 'text/plain',
  log: 'text/plain',
  lock: 'text/plain',
  tf: 'text/x-hcl',
  hcl: 'text/x-hcl',
  diff: 'text/x-diff',
  patch: 'text/x-diff',
  rst: 'text/x-rst',
  adoc: 'text/x-asciidoc',
  org: 'text/x-org',
  tex: 'text/x-tex',
  jsonc: 'application/json',
  ndjson: 'application/x-ndjson',
  jsonl: 'application/x-ndjson',
  srt: 'text/x-subrip',
};

/** Extension-less or dot-file names that are text (matched on the lower-cased basename). */
const TEXT_BASENAMES = new Set([
  'dockerfile',
  'makefile',
  'gnumakefile',
  'license',
  'readme',
  'changelog',
  'authors',
  'codeowners',
  'procfile',
  'gemfile',
  'rakefile',
  'jenkinsfile',
  'vagrantfile',
  '.gitignore',
  '.gitattributes',
  '.dockerignore',
  '.npmignore',
  '.npmrc',
  '.nvmrc',
  '.editorconfig',
  '.bashrc',
  '.zshrc',
  '.profile',
]);

/** `application/*` types that are really text. `+json`, `+xml` and `+yaml` suffixes count too. */
export const TEXT_APPLICATION_TYPES: readonly string[] = [
  'application/json',
  'application/json5',
  'application/x-ndjson',
  'application/xml',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/node',
  'application/sql',
  'application/graphql',
  'application/x-sh',
  'application/x-tex',
  'application/x-perl',
  'application/x-httpd-php',
  'application/x-subrip',
  'application/x-ipynb+json',
  'application/ld+json',
];

/** Detected containers that say less than a known extension (a DOCX is a zip, an SVG is XML). */
const GENERIC_SNIFFED_TYPES = new Set(['application/zip', 'application/x-cfb', 'application/xml', 'text/xml']);

/** The MIME type without parameters, lower case: `Text/HTML; charset=utf-8` -> `text/html`. */
export function essenceOf(mimeType: string): string {
  return (mimeType.split(';', 1)[0] ?? '').trim().toLowerCase();
}

/** True when the MIME type denotes text (text/*, known textual application types, +json/+xml/+yaml). */
export function isTextMimeType(mimeType: string): boolean {
  const type = essenceOf(mimeType);
  return (
    type.startsWith('text/') ||
    TEXT_APPLICATION_TYPES.includes(type) ||
    type.endsWith('+json') ||
    type.endsWith('+xml') ||
    type.endsWith('+yaml')
  );
}

/**
 * The `mime-types` answers for the extensions document folders hold most, so that a folder of them is
 * served without loading the database (~200 KB of JSON; bench W0 CLI). test/converters/mime.test.ts
 * checks each against `mime-types`.
 */
export const COMMON_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  html: 'text/html',
  htm: 'text/html',
  pdf: 'application/pdf',
  csv: 'text/csv',
  xml: 'application/xml',
  yaml: 'text/yaml',
  yml: 'text/yaml',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** The file's extension, lower case and without the dot (`'md'`); `''` when it has none (`Makefile`, `.env`). */
export function extensionOf(filePath: string): string {
  return path.extname(filePath).slice(1).toLowerCase();
}

/** MIME type for an extension (no dot, any case), or `undefined` when unknown. */
export function mimeTypeFromExtension(extension: string): string | undefined {
  const ext = extension.replace(/^\./, '').toLowerCase();
  if (ext === '') return undefined;
  const override = EXTENSION_OVERRIDES[ext] ?? COMMON_TYPES[ext];
  if (override !== undefined) return override;
  const found = mimeDb().lookup(ext);
  return found === false ? undefined : found;
}

/** MIME type guessed from a path's name alone (extension, `.env*`, `Dockerfile`...), or `undefined`. */
export function mimeTypeFromPath(filePath: string): string | undefined {
  const base = path.basename(filePath).toLowerCase();
  if (base === '.env' || base.startsWith('.env.') || TEXT_BASENAMES.has(base)) return 'text/plain';
  return mimeTypeFromExtension(extensionOf(filePath));
}

/** Every extension with a known MIME type (the `mime-types` database plus the overrides above). */
export function knownExtensions(): string[] {
  const all = new Set(Object.keys(EXTENSION_OVERRIDES));
  for (const list of Object.values(mimeDb().extensions)) for (const ext of list) all.add(ext);
  return [...all];
}

/** True when the bytes start with a UTF-8 or UTF-16 byte-order mark. */
export function hasTextBom(bytes: Uint8Array): boolean {
  const [a, b, c] = bytes;
  return (a === 0xef && b === 0xbb && c === 0xbf) || (a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff);
}

/**
 * Heuristic: do these bytes look like text? A BOM says yes; a NUL byte or more than 10% control
 * characters in the first 8 KiB says no. Latin-1 and UTF-8 both pass.
 */
export function looksLikeText(bytes: Uint8Array): boolean {
  if (hasTextBom(bytes)) return true;
  const sample = bytes.subarray(0, 8192);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) control++;
  }
  return control <= sample.length / 10;
}

/** Whether `bytes` start with `%PDF`, the signature file-type detects a PDF by. */
function startsWithPdfSignature(bytes: Uint8Array): boolean {
  return bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46;
}

/** Content signature detection with `file-type` on the first 64 KiB; `undefined` when nothing matches. */
export async function sniffMimeType(bytes: Uint8Array): Promise<string | undefined> {
  if (bytes.length === 0 || hasTextBom(bytes)) return undefined;
  const { fileTypeFromBuffer } = await import('file-type');
  const result = await fileTypeFromBuffer(bytes.subarray(0, 65536));
  return result?.mime;
}

/**
 * The MIME type of a file from its name and content.
 *
 * Order: a text file whose extension says text stays that type (unless it starts with `%PDF-`);
 * otherwise a content signature wins over the extension (a PDF named `.txt` is a PDF), except a
 * generic container (zip, xml) when the extension is more precise (`.docx`, `.svg`); then the extension;
 * then `text/plain` for text-looking bytes, else `application/octet-stream`.
 */
export async function detectMimeType(filePath: string, bytes: Uint8Array): Promise<string> {
  const byName = mimeTypeFromPath(filePath);
  const isText = looksLikeText(bytes);
  // The only signature that overrides a text name on text bytes is a PDF's, which file-type finds
  // by `%PDF` at offset 0 alone: without it the answer is the name's, and file-type (~30 modules)
  // is neither loaded nor run (a folder of Markdown files never needs it; bench W0 CLI, W8).
  if (byName !== undefined && isTextMimeType(byName) && isText && !startsWithPdfSignature(bytes)) return byName;
  const sniffed = await sniffMimeType(bytes);
  if (byName !== undefined && isTextMimeType(byName) && isText && sniffed !== 'application/pdf') return byName;
  if (sniffed !== undefined && !(byName !== undefined && GENERIC_SNIFFED_TYPES.has(sniffed))) return sniffed;
  if (byName !== undefined) return byName;
  return isText ? 'text/plain' : 'application/octet-stream';
}
