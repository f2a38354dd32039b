/**
 * Shapes shared by the document store, its reader and its watcher.
 */

/** A registered file as announced to clients (`resources/list`). Frozen once created. */
export interface DocumentResource {
  /** `file://` URL of the absolute path (`url.pathToFileURL`); spaces and non-ASCII are percent-encoded. */
  uri: string;
  /** Basename for `registerDocument` (or `config.name`); path relative to the folder root with `/` separators for `registerFolder`. */
  name: string;
  title?: string;
  description?: string;
  /** MIME type of what `read` returns (e.g. `text/plain` for a PDF converted to text), predicted at registration. */
  mimeType: string;
  /** Absolute path on disk (not resolved through symlinks). */
  path: string;
  /** Absolute folder root for folder entries (the path boundary); absent for single documents. */
  root?: string;
  /** Size in bytes at registration time. */
  size?: number;
}

/**
 * The `contents` of a `resources/read` result: one item, text or base64 blob. A text cut to the read limit
 * carries `_meta["mcp-toolkit/range"]` (see `read-window.ts`).
 */
export type DocumentReadContents = Array<
  | { uri: string; mimeType: string; text: string; _meta?: Record<string, unknown> }
  | { uri: string; mimeType: string; blob: string /* base64 */; _meta?: Record<string, unknown> }
>;

/** A change to the store: the list changed (registration, folder rescan) or one resource's content changed. */
export type DocumentChangeEvent = { type: 'list_changed' } | { type: 'updated'; uri: string };

/** Listener passed to `DocumentStore.onChange`. */
export type DocumentChangeListener = (event: DocumentChangeEvent) => void;

/** Internal record behind a {@link DocumentResource}: what `read` needs beyond the public fields. */
export interface StoredDocument {
  resource: DocumentResource;
  /** The configured `mimeType` override, used instead of detection. */
  mimeOverride: string | undefined;
  /** Folder entries only: skip the read-time root check (the folder was registered with `followSymlinks`). */
  followSymlinks: boolean;
  /** Reads of files larger than this (bytes) fail with `RESOURCE_TOO_LARGE`. */
  maxFileSizeBytes: number;
}

/** A check every new document URI must pass (see `DocumentStore.addUriGuard`). */
export interface DocumentUriGuard {
  /** The error to refuse `uri` with (registration throws it), or undefined to accept it. */
  check(uri: string): Error | undefined;
  /** A file the watcher found under a folder was left out because `check` refused it. */
  skipped?(uri: string, error: Error): void;
}

/**
 * A file a folder scan left out because it is larger than the size limit (`maxFileSizeBytes`). Reported
 * once to `DocumentStore.onSkip` listeners, and listed by `DocumentStore.skipped()` while it stays so.
 */
export interface SkippedDocument {
  /** Absolute path on disk. */
  path: string;
  /** Path relative to the folder root, `/` separators (what its resource name would have been). */
  name: string;
  /** The folder root it was found under. */
  root: string;
  /** Size in bytes at scan time. */
  size: number;
  /** The limit it is over, in bytes. */
  maxFileSizeBytes: number;
}

/** Listener passed to `DocumentStore.onSkip`. */
export type DocumentSkipListener = (skipped: SkippedDocument) => void;
