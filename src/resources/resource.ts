import type { Annotations, Icon, Resource } from '@modelcontextprotocol/server';
import { InvalidResourceError } from '../errors.js';
import { accessRuleOf, type AccessRule } from '../registry/access-rule.js';
import type { RequestContext } from '../registry/request-context.js';
import type { ResourceReadReturn } from './resource-contents.js';

/** What a resource's `read` (and a template's `list` / `read`) receives about the request it serves. */
export type ResourceContext = RequestContext;

/** Fields shared by resources and resource templates (MCP `Resource` / `ResourceTemplate`). */
export interface ResourceInfo {
  /** Short name shown in lists (required, non-empty). */
  name: string;
  /** Human-readable display name. */
  title?: string;
  /** What the resource holds. */
  description?: string;
  /** MIME type of the content, e.g. `application/json`; the default of every item `read` returns. */
  mimeType?: string;
  /** Icons shown by clients (MCP `Icon[]`). */
  icons?: Icon[];
  /** MCP annotations: `audience`, `priority` (0-1), `lastModified` (ISO 8601). */
  annotations?: Annotations;
  /** Free-form `_meta` passed through in listings. */
  _meta?: Record<string, unknown>;
  /**
   * Who may see and read it, as a tool's `canAccess`: false hides it from this caller's lists
   * (`resources/list`, `resources/templates/list`) and answers its `resources/read` (and a
   * template's `completion/complete`) as an unknown resource.
   */
  canAccess?: AccessRule;
  /**
   * OAuth scopes a caller must hold (`auth.scopes`), as on tools: hidden without them, and with
   * `HttpMcpServer({ authorization })` a `resources/read` gets 403 `insufficient_scope` naming them.
   */
  requiredScopes?: readonly string[];
}

/**
 * An in-memory or computed resource at a fixed URI (MCP "Resources"). `read` runs on every
 * `resources/read` of `uri`, so the content is always current; call
 * `server.sendResourceUpdated(uri)` when it changes to tell subscribed clients.
 */
export interface ResourceConfig extends ResourceInfo {
  /** Absolute URI, e.g. `config://app` or `https://example.com/status` (RFC 3986). Unique per server. */
  uri: string;
  /** Size in bytes, when known (shown by clients; not enforced). */
  size?: number;
  /** Produces the content (see {@link ResourceReadReturn}). A thrown error is sent as JSON-RPC -32603. */
  read(uri: string, context: ResourceContext): ResourceReadReturn | Promise<ResourceReadReturn>;
}

/** A registered resource: its configuration and its frozen `resources/list` entry. */
export interface ResourceEntry {
  readonly config: ResourceConfig;
  readonly listed: Readonly<Resource>;
  /** `requiredScopes` and `canAccess` combined (see `accessRuleOf`); undefined when it has neither. */
  readonly access?: AccessRule;
}

/** The listing fields of a resource or template, without `undefined` values. */
export function listedMetadata(config: ResourceInfo): Omit<Resource, 'uri'> {
  const entry: Omit<Resource, 'uri'> = { name: config.name };
  if (config.title !== undefined) entry.title = config.title;
  if (config.description !== undefined) entry.description = config.description;
  if (config.mimeType !== undefined) entry.mimeType = config.mimeType;
  if (config.icons !== undefined) entry.icons = config.icons;
  if (config.annotations !== undefined) entry.annotations = config.annotations;
  if (config._meta !== undefined) entry._meta = config._meta;
  return entry;
}

/** Checks what resources and templates share: a non-empty name and a `read` function. */
export function checkResourceBasics(config: ResourceInfo & { read?: unknown }, label: string): void {
  if (typeof config.name !== 'string' || config.name.trim() === '') {
    throw new InvalidResourceError(`${label} needs a non-empty name.`);
  }
  if (typeof config.read !== 'function') throw new InvalidResourceError(`${label} needs a read() function.`);
}

/**
 * Validates a resource configuration and builds its listing entry.
 * @throws InvalidResourceError when the URI is not absolute, the name is empty or `read` is missing;
 *   TypeError when `requiredScopes` is not an array of scope names.
 */
export function compileResource(config: ResourceConfig): ResourceEntry {
  if (!config || typeof config.uri !== 'string' || !URL.canParse(config.uri)) {
    throw new InvalidResourceError(
      `Resource URI ${JSON.stringify(config?.uri)} is not an absolute URI (expected e.g. "config://app").`,
    );
  }
  const label = `Resource "${config.uri}"`;
  checkResourceBasics(config, label);
  const listed: Resource = { uri: config.uri, ...listedMetadata(config) };
  if (config.size !== undefined) listed.size = config.size;
  const access = accessRuleOf(label, config.requiredScopes, config.canAccess);
  return Object.freeze({ config, listed: Object.freeze(listed), ...(access && { access }) });
}
