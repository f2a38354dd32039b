import type { CallToolResult } from '@modelcontextprotocol/server';
import { isPlainObject } from '../wire/plain-object.js';

type Client = import('@modelcontextprotocol/client').Client;
type RequestOptions = NonNullable<Parameters<Client['callTool']>[1]>;
type Outcome = { ok: true; value: unknown } | { ok: false; reason: string; message?: string };
type StandardResult = { value: unknown } | { issues: { message: string }[] };
interface ResultSchema {
  '~standard': { version: 1; vendor: string; validate(value: unknown): StandardResult };
}

/** The parts of the v2 client's `Protocol` (2.4) this module uses. */
interface ClientInternals {
  _wireCodec?: () => { era?: string; validateResult(method: string, value: unknown): Outcome };
  _setupTimeout?: (messageId: number, timeout: number, ...rest: unknown[]) => void;
  _cleanupTimeout?: (messageId: number) => void;
}

/** A `timeout` at or above this is "none": the caller keeps its own timer (Node's longest delay). */
export const NO_SDK_TIMEOUT = 2 ** 31 - 1;

const schemas = new WeakMap<object, ResultSchema>();

/** The `_meta` key of the server's identity in a 2026-07-28 result. */
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** `{ type: 'text', text }` and nothing else: the text block the SDK's schema returns as it is. */
function isBareTextBlock(block: unknown): boolean {
  if (!isPlainObject(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
  let keys = 0;
  for (const _key in block) keys += 1;
  return keys === 2;
}

/**
 * Whether a 2026-07-28 `tools/call` result (as the client's codec lifts it: without `resultType`)
 * is valid for the codec's schema and comes out of it unchanged: text blocks with only `type` and
 * `text`, `isError` a boolean when present, `_meta` an object whose server identity (when present)
 * is only a string `name` and `version`. The schema keeps the other keys as they are (loose
 * objects, `structuredContent` of any type), and builds equal copies of the rest; any other
 * result goes through the schema.
 */
export function isPlainModernToolResult(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const { content, isError, _meta: meta } = value;
  if (!Array.isArray(content) || !content.every(isBareTextBlock)) return false;
  if (isError !== undefined && typeof isError !== 'boolean') return false;
  if (meta === undefined) return !('_meta' in value);
  if (!isPlainObject(meta)) return false;
  const server = meta[SERVER_INFO];
  if (server === undefined) return !(SERVER_INFO in meta);
  if (!isPlainObject(server) || typeof server.name !== 'string' || typeof server.version !== 'string') return false;
  let keys = 0;
  for (const _key in server) keys += 1;
  return keys === 2;
}

/**
 * The result schema the client's `callTool()` would use, built once per wire codec. The SDK builds
 * it per request and first probes it with `undefined`, which fails and turns a zod error into a
 * string: about 8% of a call (docs/performance.md, #27). Same validation, same messages.
 * On 2026-07-28 the codec has already checked the wire result against the era's `tools/call`
 * schema when it lifted it, so a plain result ({@link isPlainModernToolResult}) is not parsed a
 * second time: it is valid, and the parse would only copy it.
 */
function toolResultSchema(codec: NonNullable<ReturnType<NonNullable<ClientInternals['_wireCodec']>>>): ResultSchema {
  let schema = schemas.get(codec);
  if (!schema) {
    const modern = codec.era === '2026-07-28';
    const validate = (value: unknown): StandardResult => {
      if (modern && isPlainModernToolResult(value)) return { value };
      const outcome = codec.validateResult('tools/call', value);
      if (outcome.ok) return { value: outcome.value };
      return { issues: [{ message: outcome.reason === 'invalid' ? outcome.message! : 'not-in-era: tools/call' }] };
    };
    schema = { '~standard': { version: 1, vendor: 'mcp-wire-codec', validate } };
    schemas.set(codec, schema);
  }
  return schema;
}

/** Whether `client` has the internals {@link upstreamCallTool} and {@link skipUnboundedTimers} use. */
export function upstreamClientShortcutsApply(client: object): boolean {
  const internals = client as ClientInternals;
  return (
    typeof internals._wireCodec === 'function' &&
    typeof internals._wireCodec.call(client)?.validateResult === 'function' &&
    typeof internals._setupTimeout === 'function' &&
    typeof internals._cleanupTimeout === 'function'
  );
}

/**
 * `client.callTool(params, options)` for a caller that checks the result's `structuredContent`
 * itself and sends no `Mcp-Param-*` headers (stdio, or the handshake era): the same request and
 * result validation, without the per-call schema probe nor the output-schema cache lookup.
 * Falls back to `callTool` on a client without these internals.
 */
export function upstreamCallTool(
  client: Client,
  params: Parameters<Client['callTool']>[0],
  options: RequestOptions,
): Promise<CallToolResult> {
  const codec = (client as unknown as ClientInternals)._wireCodec?.();
  if (!codec || typeof codec.validateResult !== 'function') {
    return client.callTool(params, options) as Promise<CallToolResult>;
  }
  return client.request(
    { method: 'tools/call', params },
    toolResultSchema(codec) as never,
    options,
  ) as Promise<CallToolResult>;
}

/**
 * Requests sent with `timeout: NO_SDK_TIMEOUT` arm no SDK timer: the SDK sets (and clears) one per
 * request even then, about 7% of a forwarded call; the caller times the request itself. Other
 * requests keep theirs. Returns whether it applied (a client without `_setupTimeout` is left as it is).
 */
export function skipUnboundedTimers(client: Client): boolean {
  const internals = client as unknown as ClientInternals;
  const setup = internals._setupTimeout;
  if (typeof setup !== 'function' || typeof internals._cleanupTimeout !== 'function') return false;
  internals._setupTimeout = function (this: unknown, messageId, timeout, ...rest) {
    if (timeout >= NO_SDK_TIMEOUT) return;
    setup.call(this, messageId, timeout, ...rest);
  };
  return true;
}
