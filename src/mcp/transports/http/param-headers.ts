/**
 * `Mcp-Param-*` headers (MCP 2026-07-28, SEP-2243 "custom headers"): a tool input property
 * annotated `"x-mcp-header": "Region"` is mirrored by the client in an `Mcp-Param-Region`
 * header, so proxies can route on it. The server MUST check the header against the body and
 * reject a missing, undecodable or different one with HTTP 400 and JSON-RPC -32020
 * (HeaderMismatch). Values are literal, or `=?base64?<Base64 of the UTF-8 value>?=`.
 */
import type { ServerResponse } from 'node:http';
import { base64ToText, textToBase64 } from '../../../bytes.js';
import { scanParamHeaders, type ParamHeaderDeclaration } from '../../../registry/param-header-rules.js';
import { isPlainObject as isObject } from '../../wire/plain-object.js';

/** One annotated property: its path through `properties` and its header name suffix. */
export type ParamHeader = ParamHeaderDeclaration;

/** JSON-RPC error code of a header that disagrees with the body (2026-07-28 HeaderMismatch). */
export const HEADER_MISMATCH = -32020;

const declarationsCache = new WeakMap<object, readonly ParamHeader[]>();
const SENTINEL = /^=\?base64\?(.*)\?=$/;
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The `x-mcp-header` declarations of a tool input schema, found through chains of `properties`
 * only (the places SEP-2243 allows them; registration refuses a tool with any other). Computed
 * once per schema object.
 */
export function paramHeaders(inputSchema: unknown): readonly ParamHeader[] {
  if (!isObject(inputSchema)) return [];
  const cached = declarationsCache.get(inputSchema);
  if (cached) return cached;
  const found = scanParamHeaders(inputSchema).declarations;
  declarationsCache.set(inputSchema, found);
  return found;
}

/** A header value decoded (`=?base64?...?=` → its UTF-8 text), or undefined when its Base64 is invalid. */
export function decodeParamHeader(value: string): string | undefined {
  const wrapped = SENTINEL.exec(value);
  if (!wrapped) return value;
  const base64 = wrapped[1] ?? '';
  if (!STRICT_BASE64.test(base64)) return undefined;
  const text = base64ToText(base64);
  return textToBase64(text) === base64 ? text : undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let value = args;
  for (const key of path) value = isObject(value) ? value[key] : undefined;
  return value;
}

/**
 * Checks the `Mcp-Param-*` headers of a `tools/call` against its arguments. A property absent
 * from the body needs no header; a present one (string, number or boolean) needs a header that
 * decodes to the same value.
 * @returns why the request must be refused, or undefined when every header agrees.
 */
export function paramHeaderMismatch(
  declarations: readonly ParamHeader[],
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  for (const { path, header: suffix } of declarations) {
    const value = valueAt(args, path);
    if (value === undefined || value === null || typeof value === 'object') continue;
    const name = `Mcp-Param-${suffix}`;
    const raw = header(name.toLowerCase());
    if (raw === undefined) return `the ${name} header is missing but the body carries ${path.join('.')}`;
    const decoded = decodeParamHeader(raw.trim());
    if (decoded === undefined) return `the ${name} header is not valid Base64`;
    const same =
      typeof value === 'number' ? decoded.trim() !== '' && Number(decoded) === value : decoded === String(value);
    if (!same) return `the ${name} header does not match ${path.join('.')} in the body`;
  }
  return undefined;
}

/**
 * For a 2026-07-28 `tools/call` whose tool declares `x-mcp-header` properties: why its
 * `Mcp-Param-*` headers must be refused, or undefined (also for any other request).
 * @param header - a request header's value by lower-case name (repeated headers joined with `, `).
 * @param inputSchema - the listed input schema of a tool the caller may call, by name.
 */
export function toolCallHeaderRefusal(
  body: unknown,
  header: (name: string) => string | undefined,
  inputSchema: (tool: string) => unknown,
): string | undefined {
  if (!isObject(body) || body.method !== 'tools/call' || !isObject(body.params)) return undefined;
  const { name, arguments: args } = body.params;
  if (typeof name !== 'string') return undefined;
  const declarations = paramHeaders(inputSchema(name));
  if (declarations.length === 0) return undefined;
  return paramHeaderMismatch(declarations, args, header);
}

/** Answers HTTP 400 with a JSON-RPC HeaderMismatch (-32020) error echoing the request id. */
export function sendHeaderMismatch(res: ServerResponse, body: unknown, reason: string): void {
  if (res.headersSent) return;
  const payload = headerMismatchJson(body, reason);
  res.writeHead(400, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) });
  res.end(payload);
}

/** The JSON text of a HeaderMismatch (-32020) error response echoing the request id (HTTP 400). */
export function headerMismatchJson(body: unknown, reason: string): string {
  const id = isObject(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: HEADER_MISMATCH, message: `Bad Request: ${reason}` } });
}
