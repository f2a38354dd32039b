// Type and range checks of the DocumentStore options and the registerDocument / registerFolder
// configs, so that `watch: 'false'`, `maxFileSizeBytes: -1` or `extensions: 'md'` is refused where it
// is given (InvalidOptionsError naming the option) instead of misbehaving or throwing a TypeError later.
import { assertKnownOptions, optionKeys } from '../known-options.js';
import {
  BOOLEAN,
  checkOptionsObject,
  checkOptionValues,
  countRule,
  invalidOptionValue,
  isObject,
  msRule,
  numberRule,
  STRING,
  STRING_ARRAY,
  withMethods,
  type ValueRules,
} from '../option-values.js';
import {
  FILE_DOCUMENT_CONFIG_KEYS,
  FOLDER_DOCUMENT_CONFIG_KEYS,
  type FileDocumentConfig,
  type FolderDocumentConfig,
} from './document-config.js';
import type { DocumentStoreOptions } from './document-store.js';

const STORE_OPTION_KEYS = optionKeys<DocumentStoreOptions>()([
  'converters',
  'maxFileSizeBytes',
  'cacheMaxBytes',
  'watch',
  'watchDebounceMs',
  'watchMaxWaitMs',
  'maxReadChars',
  'conversionTimeoutMs',
  'conversionHeapMb',
  'maxOutputChars',
  'maxInflatedBytes',
  'conversionThreads',
]);

const SIZE = countRule(1, 'bytes');

/**
 * The largest `conversionHeapMb`, MiB (1 TiB). Larger values reached V8 as a `--max-old-space-size` it refuses
 * ("out of bounds": the limit was silently not applied) or that crashed every conversion process (SIGTRAP).
 */
export const MAX_CONVERSION_HEAP_MB = 1024 * 1024;

const STORE_RULES: ValueRules<DocumentStoreOptions> = {
  converters: withMethods('a ConverterRegistry', ['register', 'supportedExtensions']),
  maxFileSizeBytes: SIZE,
  cacheMaxBytes: countRule(0, 'bytes'),
  watch: BOOLEAN,
  watchDebounceMs: msRule(true),
  watchMaxWaitMs: msRule(true),
  maxReadChars: numberRule({ min: 1 }),
  conversionTimeoutMs: msRule(false),
  conversionHeapMb: numberRule({ min: 0, above: true, max: MAX_CONVERSION_HEAP_MB, unit: 'MiB' }),
  maxOutputChars: numberRule({ min: 1 }),
  maxInflatedBytes: numberRule({ min: 1, unit: 'bytes' }),
  conversionThreads: countRule(1),
};

const FILE_RULES: ValueRules<FileDocumentConfig> = {
  path: STRING,
  name: STRING,
  title: STRING,
  description: STRING,
  mimeType: STRING,
};

const FOLDER_RULES: ValueRules<FolderDocumentConfig> = {
  path: STRING,
  title: STRING,
  description: STRING,
  mimeType: STRING,
  extensions: STRING_ARRAY,
  ignore: STRING_ARRAY,
  followSymlinks: BOOLEAN,
  maxFileSizeBytes: SIZE,
};

/**
 * Checks `new DocumentStore(options)`.
 * @throws InvalidOptionsError for options that are not an object, an unknown key, or a value of the wrong
 *   type or range (a limit that is not a positive number, `watch` that is not a boolean, ...).
 */
export function checkDocumentStoreOptions(options: DocumentStoreOptions): void {
  checkOptionsObject('DocumentStore', options);
  assertKnownOptions('DocumentStore option', options, STORE_OPTION_KEYS);
  checkOptionValues('DocumentStore option', options, STORE_RULES);
}

/**
 * Checks a `registerDocument` / `registerFolder` argument (a path or a config) and returns the config.
 * @throws InvalidOptionsError for an argument that is neither a path nor a config object (a `URL` included), a
 *   config without `path`, an unknown key, or a value of the wrong type or range.
 */
export function documentConfig<C extends FileDocumentConfig | FolderDocumentConfig>(
  kind: 'registerDocument' | 'registerFolder',
  pathOrConfig: string | C,
): C {
  if (typeof pathOrConfig === 'string') return { path: pathOrConfig } as C;
  if (!isObject(pathOrConfig)) {
    throw invalidOptionValue(kind, 'argument', 'a path or a config object { path, ... }', pathOrConfig);
  }
  const folder = kind === 'registerFolder';
  assertKnownOptions(`${kind} option`, pathOrConfig, folder ? FOLDER_DOCUMENT_CONFIG_KEYS : FILE_DOCUMENT_CONFIG_KEYS);
  checkOptionValues(`${kind} option`, pathOrConfig, (folder ? FOLDER_RULES : FILE_RULES) as ValueRules<C>);
  // A URL has no own keys, so it passed as an empty config and was refused as "the path is empty" of the working
  // directory; so was a config that forgot `path`.
  if (pathOrConfig.path === undefined) {
    const hint = pathOrConfig instanceof URL ? 'For a file: URL, pass fileURLToPath(url) from node:url.' : '';
    throw invalidOptionValue(kind, 'argument', 'a path or a config object { path, ... }', pathOrConfig, hint);
  }
  return pathOrConfig;
}
