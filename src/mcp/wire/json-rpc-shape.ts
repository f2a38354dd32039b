import {
  parseJSONRPCMessage,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  specTypeSchemas,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { invalidParamsMessage } from './invalid-params.js';
import { isWellFormedText, wellFormed } from './well-formed.js';
import { isPlainObject } from './plain-object.js';

/** A JSON-RPC error response the transport sends for a message it could not accept. */
export interface RefusalResponse {
  jsonrpc: '2.0';
  id: string | number | null;
  error: { code: number; message: string };
}

/**
 * A JSON-RPC id MCP accepts: a string or an integer (MCP "Base protocol": ids are never fractional).
 * A string must be well-formed Unicode: answers echo the id, and everything sent is made well-formed
 * (`well-formed.ts`), so a lone surrogate would come back as U+FFFD and match nothing (an HTTP POST
 * then never got its answer). The same holds for a progress token.
 */
export function isValidRequestId(value: unknown): value is string | number {
  return typeof value === 'string' ? isWellFormedText(value) : typeof value === 'number' && Number.isSafeInteger(value);
}

/** A string id or progress token with a lone surrogate (valid to the SDK's schema, refused here). */
function illFormedEcho(value: Record<string, unknown>): boolean {
  const { id, params } = value;
  const token = isPlainObject(params) && isPlainObject(params._meta) ? params._meta.progressToken : undefined;
  return (typeof id === 'string' && !isValidRequestId(id)) || (typeof token === 'string' && !isValidRequestId(token));
}

/**
 * The common case of the SDK's `JSONRPCRequestSchema` / `JSONRPCNotificationSchema` (strict
 * objects), checked by hand: `jsonrpc: "2.0"`, a string `method`, for a request an `id` (string
 * or safe integer), optional object `params` whose optional object `_meta` has a valid
 * `progressToken` if any, and no other top-level field. Returns the kind when the value is such
 * a message: those schemas accept it and their parse returns the same value (up to key order).
 * `undefined` means "not this common case", not "invalid": the caller then asks the SDK's schema
 * (a `_meta` naming a related task, whose schema strips fields, and an own `"__proto__"` key in
 * `params` or `_meta`, which the schema drops, always go that way).
 * Zod tries a union's members in turn and a failed member costs more than a passed one; this
 * check costs well under a microsecond (profile in docs/performance.md, W2).
 */
export function plainMessageKind(value: unknown): 'request' | 'notification' | undefined {
  if (value === checkedRequest && value !== undefined) return 'request';
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return undefined;
  for (const key in value) {
    if (key !== 'jsonrpc' && key !== 'method' && key !== 'id' && key !== 'params') return undefined;
  }
  const { params } = value;
  if (params !== undefined) {
    if (!isPlainObject(params) || Object.hasOwn(params, '__proto__')) return undefined; // the schema drops that key
    const meta = params._meta;
    if (meta !== undefined) {
      if (!isPlainObject(meta) || Object.hasOwn(meta, RELATED_TASK_META_KEY) || Object.hasOwn(meta, '__proto__')) {
        return undefined;
      }
      if (meta.progressToken !== undefined && !isValidRequestId(meta.progressToken)) return undefined;
    }
  }
  if (!Object.hasOwn(value, 'id')) return 'notification';
  return isValidRequestId(value.id) ? 'request' : undefined;
}

/** The request {@link deliverCheckedRequest} is delivering (the only time it is set). */
let checkedRequest: object | undefined;

/**
 * Calls `to.onmessage(request)` for a `request` that {@link plainMessageKind} has just found to be
 * a plain request, which it then answers 'request' for without checking again until that call
 * returns. A stdio message passes four layers that each ask (the transport, the wire's direct
 * path, the channel, the dispatch), ~350 instructions each (callgrind, docs/performance.md sixth
 * round); while the synchronous delivery runs, nothing but those layers holds the freshly
 * parsed message, so the answer cannot change. A delivery inside another one (there is none
 * today) only makes the outer one check again.
 */
export function deliverCheckedRequest<T extends object>(request: T, to: { onmessage?: (request: T) => void }): void {
  checkedRequest = request;
  try {
    to.onmessage?.(request);
  } finally {
    checkedRequest = undefined;
  }
}

/**
 * Whether `value` is a result response the SDK's `JSONRPCResultResponseSchema` accepts, checked by
 * hand: exactly `jsonrpc: "2.0"`, a valid `id` and an object `result` whose `_meta`, if any, is an
 * object (the schema is strict at the top and loose below; its one nested rule cannot fail).
 */
export function isPlainResultResponse(value: unknown): boolean {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || !isValidRequestId(value.id)) return false;
  if (!isPlainObject(value.result)) return false;
  for (const key in value) if (key !== 'jsonrpc' && key !== 'id' && key !== 'result') return false;
  const meta = value.result._meta;
  return meta === undefined || isPlainObject(meta);
}

/** What is wrong with a JSON value that is not a JSON-RPC 2.0 message, for a person to read. */
function problemOf(value: unknown): string {
  if (!isPlainObject(value)) return 'a JSON-RPC message is a JSON object';
  if (value.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  if (typeof value.id === 'string' && !isValidRequestId(value.id)) return '"id" must be well-formed Unicode';
  if ('id' in value && !isValidRequestId(value.id)) return '"id" must be a string or an integer';
  if ('method' in value && typeof value.method !== 'string') return '"method" must be a string';
  const { params } = value;
  if (params !== undefined && !isPlainObject(params)) return '"params" must be an object';
  const meta = params?._meta;
  if (meta !== undefined && !isPlainObject(meta)) return '"params._meta" must be an object';
  if (typeof meta?.progressToken === 'string' && !isValidRequestId(meta.progressToken)) {
    return '"params._meta.progressToken" must be well-formed Unicode';
  }
  if (meta?.progressToken !== undefined && !isValidRequestId(meta.progressToken)) {
    return '"params._meta.progressToken" must be a string or an integer';
  }
  return 'it is neither a request, a notification nor a response';
}

/** Batches were removed from MCP in protocol revision 2025-06-18; this server serves none. */
export const BATCH_REFUSAL =
  'Invalid Request: JSON-RPC batches are not supported (MCP removed batching in protocol revision 2025-06-18); send each message on its own.';

/**
 * Checks a parsed JSON value against the JSON-RPC 2.0 message shapes MCP uses (the SDK's
 * `JSONRPCMessageSchema`). Returns the message, or the -32600 Invalid Request response to
 * answer with (JSON-RPC 2.0 section 5.1: valid JSON that is not a valid Request object),
 * carrying the request's `id` whenever it can be read (a string or an integer), else `null`.
 * An array (a batch) is refused as a whole: see {@link BATCH_REFUSAL}.
 */
export function checkJsonRpcMessage(value: unknown): { message: JSONRPCMessage } | { refusal: RefusalResponse } {
  if (Array.isArray(value)) return { refusal: refusal(null, BATCH_REFUSAL) };
  if (plainMessageKind(value) !== undefined) return { message: value as JSONRPCMessage };
  if (!(isPlainObject(value) && illFormedEcho(value))) {
    try {
      return { message: parseJSONRPCMessage(value) };
    } catch {
      // refused below
    }
  }
  const id = isPlainObject(value) && isValidRequestId(value.id) ? value.id : null;
  return { refusal: refusal(id, `Invalid Request: not a JSON-RPC 2.0 message: ${problemOf(value)}.`) };
}

function refusal(id: string | number | null, message: string): RefusalResponse {
  return { jsonrpc: '2.0', id: wellFormed(id), error: { code: ProtocolErrorCode.InvalidRequest, message } };
}

/** The -32700 Parse error response for text that is not JSON (JSON-RPC 2.0 section 5.1; the id cannot be known). */
export function parseErrorResponse(): RefusalResponse {
  return {
    jsonrpc: '2.0',
    id: null,
    error: { code: ProtocolErrorCode.ParseError, message: 'Parse error: invalid JSON' },
  };
}

/**
 * The -32602 Invalid params response for an `initialize` request whose params do not match
 * the 2025-11-25 schema (say, no `capabilities`), naming the fields; undefined when it is valid.
 * Lets an HTTP endpoint answer such a request as what it is, instead of as a request without
 * a session.
 */
export function invalidInitializeResponse(message: { id?: unknown }): RefusalResponse | undefined {
  const checked = specTypeSchemas.InitializeRequest['~standard'].validate(message);
  if (checked instanceof Promise || !checked.issues) return undefined;
  const issues = checked.issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((key) => (typeof key === 'object' ? key.key : key)) as Array<string | number>,
  }));
  const id = isValidRequestId(message.id) ? wellFormed(message.id) : null;
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ProtocolErrorCode.InvalidParams, message: invalidParamsMessage('initialize', issues) },
  };
}
