import { UpstreamError } from '../errors.js';
import {
  HTTP_UPSTREAM_KEYS,
  STDIO_UPSTREAM_KEYS,
  misplacedTransportKeys,
  resolveUpstreamConfig,
  type UpstreamConfig,
} from './upstream-config.js';

/** Keys of one `mcpServers` entry that are not the upstream's own settings but are fine to meet. */
const IGNORED_KEYS = new Set(['type', 'transport', 'description', 'disabled', 'timeout']);

/**
 * The upstream name a `mcpServers` key becomes: characters outside `A-Z a-z 0-9 _ -` turn into `_`,
 * cut to 64 (`"My Files"` → `My_Files`).
 */
export function upstreamNameOf(key: string): string {
  return key.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || '_';
}

/** JSON.parse's message with the line and column of its `position N` (editors show those, not offsets). */
function withLineAndColumn(message: string, text: string): string {
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return message;
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  const column = Number(position) - before.lastIndexOf('\n');
  return `${message}: line ${line}, column ${column}`;
}

/**
 * Reads the `mcpServers` format Claude Desktop and IDEs use:
 * `{ "mcpServers": { "<name>": { "command", "args"?, "env"?, "cwd"? } | { "url", "headers"? } } }`.
 * An entry with `"disabled": true` is left out; `type` (`stdio`, `http`, `streamable-http`) is
 * checked against the fields; other unknown keys are an error so a typo does not pass silently.
 * @param text - the file's content.
 * @param source - the file's path, for messages.
 * @throws UpstreamError (`INVALID_UPSTREAM`) naming the file and the entry: not JSON (with the line and
 *   column; a leading byte-order mark is allowed), no `mcpServers`
 *   object, an entry that is neither stdio nor HTTP or gives both `command` and `url`, a `disabled` that is not
 *   a boolean, an `sse` entry (the deprecated HTTP+SSE transport
 *   is not supported), two keys that make the same name, and whatever `addUpstream()` would refuse
 *   (a URL with a user name or password, values that are not strings, ...).
 */
export function parseServersConfig(text: string, source: string): UpstreamConfig[] {
  const fail = (entry: string, message: string): never => {
    throw new UpstreamError('INVALID_UPSTREAM', entry, `${source}: ${message}`);
  };
  let parsed: unknown;
  const json = text.startsWith('\uFEFF') ? text.slice(1) : text; // a byte-order mark, as some Windows editors save
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    fail('', `not JSON (${withLineAndColumn((error as Error).message, json)})`);
  }
  const servers = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    fail('', 'expected { "mcpServers": { "<name>": { "command": ... } | { "url": ... } } }');
  }
  const names = new Map<string, string>();
  const configs: UpstreamConfig[] = [];
  for (const [key, value] of Object.entries(servers as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(key, `"${key}" must be an object`);
    const entry = value as Record<string, unknown>;
    // "disabled": "true" must not start the server the person meant to switch off.
    if (entry.disabled !== undefined && typeof entry.disabled !== 'boolean')
      fail(key, `"${key}": "disabled" must be true or false, not ${JSON.stringify(entry.disabled)}`);
    if (entry.disabled === true) continue;
    if (entry.url !== undefined && entry.command !== undefined)
      fail(key, `"${key}": give either "command" (a stdio server) or "url" (Streamable HTTP), not both`);
    const type = entry.type ?? entry.transport;
    if (type === 'sse') fail(key, `"${key}": the HTTP+SSE transport is not supported; use its Streamable HTTP URL`);
    const http = entry.url !== undefined;
    if (type !== undefined && !['stdio', 'http', 'streamable-http', 'streamableHttp'].includes(String(type))) {
      fail(key, `"${key}": unknown type ${JSON.stringify(type)}`);
    }
    if (type !== undefined && (type === 'stdio') === http)
      fail(key, `"${key}": type "${String(type)}" does not match its fields`);
    // A key of the other transport ("args" beside "url") is known, just misplaced: say so (addUpstream's check).
    const misplaced = misplacedTransportKeys(entry);
    if (misplaced) fail(key, `"${key}": ${misplaced.message}`);
    const allowed = http ? HTTP_UPSTREAM_KEYS : STDIO_UPSTREAM_KEYS;
    const unknown = Object.keys(entry).filter((field) => !allowed.has(field) && !IGNORED_KEYS.has(field));
    if (unknown.length > 0) fail(key, `"${key}": unknown key${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
    const name = upstreamNameOf(key);
    if (names.has(name)) fail(key, `"${key}" and "${names.get(name)}" both become the upstream name "${name}"`);
    names.set(name, key);
    const fields = Object.fromEntries(Object.entries(entry).filter(([field]) => allowed.has(field)));
    const config = { name, ...fields } as UpstreamConfig;
    try {
      resolveUpstreamConfig(config); // its errors (a URL with a password, ...) at once, naming the file
    } catch (error) {
      fail(key, `"${key}": ${(error as Error).message.replace(/^Upstream "[^"]*": /, '')}`);
    }
    configs.push(config);
  }
  return configs;
}
