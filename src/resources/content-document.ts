import { InvalidResourceError } from '../errors.js';
import type { ResourceConfig } from './resource.js';

/**
 * In-memory text served as a resource (`server.registerContentDocument`, llm-chat-mcp's
 * `ContentDocumentConfig` fields): a fixed string, or a provider called on every read.
 */
export interface ContentDocumentConfig {
  /** Resource name, unique among content documents; also names the URI (see {@link contentDocumentUri}). */
  name: string;
  /** The text, or a function returning it (sync or async), called on every `resources/read`. */
  content: string | (() => string | Promise<string>);
  /** Human-readable display name. */
  title?: string;
  /** What the document holds. */
  description?: string;
  /** MIME type of the text. Default `text/markdown`. */
  mimeType?: string;
}

/**
 * The URI of a content document: `content://<name>`, the scheme llm-chat-mcp uses, with the
 * name percent-encoded (`encodeURIComponent`) so any name makes a valid URI. Plain names
 * (`guide`, `release-notes`) give the same URI as llm-chat-mcp.
 */
export function contentDocumentUri(name: string): string {
  return `content://${encodeURIComponent(name)}`;
}

/**
 * The resource behind a content document: URI from {@link contentDocumentUri}, `read()` returning
 * the string or awaiting the provider on every read (never cached).
 * @throws InvalidResourceError when `name` is empty or `content` is neither a string nor a function.
 */
export function contentDocumentResource(config: ContentDocumentConfig): ResourceConfig {
  if (typeof config?.name !== 'string' || config.name.trim() === '') {
    throw new InvalidResourceError('registerContentDocument() needs a non-empty `name`.');
  }
  const { name, content, title, description, mimeType = 'text/markdown' } = config;
  if (typeof content !== 'string' && typeof content !== 'function') {
    throw new InvalidResourceError(
      `Content document "${name}": \`content\` must be a string or a function returning one.`,
    );
  }
  return {
    uri: contentDocumentUri(name),
    name,
    mimeType,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    read: async () => (typeof content === 'function' ? await content() : content),
  };
}
