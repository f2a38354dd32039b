import { optionKeys } from '../known-options.js';

/**
 * Configuration accepted by `registerDocument` / `registerFolder` (field names from the seed API).
 */

/** One file exposed as an MCP resource. */
export interface FileDocumentConfig {
  /** Path to the file (absolute, or relative to the process's working directory). */
  path: string;
  /** Resource name (default: the file's basename). */
  name?: string;
  /** Resource title shown by clients. */
  title?: string;
  /** Resource description shown by clients. */
  description?: string;
  /**
   * Override the MIME type inferred from the extension and content. It picks the converter; the resource's
   * announced type is then that converter's output type (e.g. `application/pdf` -> `text/plain`).
   */
  mimeType?: string;
}

/** Every matching file under a folder exposed as an MCP resource, named by its path relative to the folder. */
export interface FolderDocumentConfig {
  /** Path to the folder (absolute, or relative to the process's working directory). */
  path: string;
  /** Title applied to every resource from this folder. */
  title?: string;
  /** Description applied to every resource from this folder. */
  description?: string;
  /** MIME type override applied to every resource from this folder (see {@link FileDocumentConfig.mimeType}). */
  mimeType?: string;
  /**
   * Extensions to include, case-insensitive, with or without leading dot (`['MD', '.txt']`); multi-part
   * extensions such as `tar.gz` work too. Default: every extension the store's converters support.
   */
  extensions?: string[];
  /**
   * Glob patterns (relative to the folder, `/` separators, picomatch syntax) of files or folders to leave out,
   * e.g. `['drafts/**', '**\/*.tmp']`. Dot-files, dot-folders and `node_modules` are always left out.
   */
  ignore?: string[];
  /**
   * Follow symbolic links whose target lies outside the folder, and descend into symlinked folders
   * (cycles are detected). Default `false`: a link is kept only when it is a file link resolving inside the folder.
   */
  followSymlinks?: boolean;
  /** Skip files larger than this many bytes at scan time (default: the store's `maxFileSizeBytes`). */
  maxFileSizeBytes?: number;
}

/** The keys of {@link FileDocumentConfig}, checked at registration. */
export const FILE_DOCUMENT_CONFIG_KEYS = optionKeys<FileDocumentConfig>()([
  'path',
  'name',
  'title',
  'description',
  'mimeType',
]);

/** The keys of {@link FolderDocumentConfig}, checked at registration. */
export const FOLDER_DOCUMENT_CONFIG_KEYS = optionKeys<FolderDocumentConfig>()([
  'path',
  'title',
  'description',
  'mimeType',
  'extensions',
  'ignore',
  'followSymlinks',
  'maxFileSizeBytes',
]);
