import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { MODERN_ERA } from './modern-envelope.js';

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;
type UserHandler = (request: unknown, ctx: ServerContext) => unknown;

/** The tri-state outcome of the SDK's wire codecs (2.4). */
type Outcome = { ok: true; value: unknown } | { ok: false; reason: 'not-in-era' | 'invalid'; message?: string };

/** The parts of the SDK's wire codec (2.4, private: `Protocol._negotiatedWireCodec()`) used here. */
interface WireCodec {
  validateRequest(method: string, raw: unknown): Outcome;
  validateResult(method: string, raw: unknown): Outcome;
}

/** The private parts of the SDK's `Server` (2.4) this module calls. */
interface ServerParts {
  _negotiatedWireCodec(): WireCodec & { readonly era?: string };
  _invokeInputRequiredCapableHandler(
    method: string,
    handler: Handler,
    request: JSONRPCRequest,
    ctx: ServerContext,
  ): Promise<Result>;
}

/** Whether `server` has the private parts {@link wrapToolsCall} calls (the self-check). */
export function toolsCallWrapperApplies(server: object): boolean {
  const parts = server as Partial<ServerParts>;
  return (
    typeof parts._negotiatedWireCodec === 'function' && typeof parts._invokeInputRequiredCapableHandler === 'function'
  );
}

/** The SDK's `normalizeContentlessToolResult` (2.4): a result without `content` (and no task/input fields) gets `content: []`. */
const FOREIGN_FAMILY_KEYS = ['task', 'inputRequests', 'requestState'];
function normalizeContentless(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (record.content !== undefined || FOREIGN_FAMILY_KEYS.some((key) => key in record)) return value;
  return { ...record, content: [] };
}

/**
 * The fresh copy the codec's `CallToolResult` schema makes of a result made only of text blocks
 * (`{ content: [{ type: 'text', text }, ...], isError? }`, keys in the schema's order, plain objects),
 * or undefined for any other result. Such a result passes the schema, and the schema's copy has the
 * same keys in the same order: built here without the parse.
 */
function plainTextResultCopy(value: unknown): Result | undefined {
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype)
    return undefined;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const withError = keys.length === 2 && keys[1] === 'isError' && typeof record.isError === 'boolean';
  if (keys[0] !== 'content' || !(keys.length === 1 || withError)) return undefined;
  const content = record.content;
  if (!Array.isArray(content) || Object.getPrototypeOf(content) !== Array.prototype) return undefined;
  const copy = new Array<{ type: 'text'; text: string }>(content.length);
  for (let index = 0; index < content.length; index += 1) {
    const block: unknown = content[index];
    if (block === null || typeof block !== 'object' || Object.getPrototypeOf(block) !== Object.prototype) {
      return undefined;
    }
    const { type, text } = block as { type?: unknown; text?: unknown };
    const blockKeys = Object.keys(block);
    if (type !== 'text' || typeof text !== 'string' || blockKeys.length !== 2 || blockKeys[0] !== 'type') {
      return undefined;
    }
    copy[index] = { type: 'text', text };
  }
  return (withError ? { content: copy, isError: record.isError } : { content: copy }) as Result;
}

/** Whether `server`'s negotiated codec (a fresh server: the 2025-11-25 one) copies a plain text result the way this module does. */
export function plainResultCopyApplies(server: Server): boolean {
  return (
    toolsCallWrapperApplies(server) &&
    codecCopiesPlainResults((server as unknown as ServerParts)._negotiatedWireCodec())
  );
}

/** Per codec: whether its `CallToolResult` copy of a plain text result is the one {@link plainTextResultCopy} makes (checked once). */
const plainCopyMatches = new WeakMap<WireCodec, boolean>();

function codecCopiesPlainResults(codec: WireCodec): boolean {
  let matches = plainCopyMatches.get(codec);
  if (matches === undefined) {
    const samples = [
      { content: [{ type: 'text', text: 'a' }] },
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        isError: true,
      },
      { content: [] },
    ];
    matches = samples.every((sample) => {
      const outcome = codec.validateResult('tools/call', sample);
      return outcome.ok && JSON.stringify(outcome.value) === JSON.stringify(plainTextResultCopy(sample));
    });
    plainCopyMatches.set(codec, matches);
  }
  return matches;
}

/** The SDK's error for a `tools/call` request or result its codec refused (2.4 wording). */
function schemaFailure(what: 'request' | 'result', outcome: Exclude<Outcome, { ok: true }>): ProtocolError {
  return outcome.reason === 'not-in-era'
    ? new ProtocolError(ProtocolErrorCode.InternalError, 'No wire schema for tools/call in the resolved era')
    : new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid tools/call ${what}: ${outcome.message}`);
}

/** The tail of the SDK's `tools/call` wrapper (2.4): the handler's result made the answer, or the SDK's error. */
function finishResult(codec: WireCodec, result: Result): Result {
  if (isInputRequiredResult(result)) return result;
  const normalized = normalizeContentless(result);
  const copy = codecCopiesPlainResults(codec) ? plainTextResultCopy(normalized) : undefined;
  if (copy) return copy;
  const checked = codec.validateResult('tools/call', normalized);
  if (!checked.ok) throw schemaFailure('result', checked);
  return checked.value as Result;
}

/** `handler`'s answer to the parsed request, with `escape` run on it first. */
function answerOf(handler: UserHandler, escape: (result: Result) => void, parsed: unknown, ctx: ServerContext) {
  return Promise.resolve(handler(parsed, ctx) as Result | Promise<Result>).then((value) => {
    escape(value);
    return value;
  });
}

/**
 * The `tools/call` wrapper of the SDK's `Server._wrapHandler` (2.4), with the request parsed once.
 * The SDK registers a handler-only `tools/call` as a closure that parses the request with the
 * codec's schema and calls the handler with the parsed copy, then wraps that closure in one that
 * parses the same request with the same schema first (and drops the copy), runs it through
 * `_invokeInputRequiredCapableHandler` and checks the result against the codec's `CallToolResult`
 * schema: two parses of every request, a measurable share of a stdio call (docs/performance.md, W2).
 * Here the request is parsed once and `handler` (the one registered) gets that copy; the rest runs
 * in the SDK's order with the SDK's errors. A result made only of text blocks gets the schema's copy
 * built directly when that codec's copy was found identical (checked once per codec,
 * {@link codecCopiesPlainResults}); every other result is checked by the codec as before.
 *
 * `escape(result)` runs on the handler's result before anything else (the view's task handles).
 */
export function wrapToolsCall(
  server: Server,
  handler: UserHandler,
  escape: (result: Result) => void = () => {},
): Handler {
  const parts = server as unknown as ServerParts;
  return async (request, ctx) => {
    const codec = parts._negotiatedWireCodec();
    const validated = codec.validateRequest('tools/call', request);
    if (!validated.ok) throw schemaFailure('request', validated);
    const parsed = validated.value;
    const result = await parts._invokeInputRequiredCapableHandler(
      'tools/call',
      (_request, handlerCtx) => answerOf(handler, escape, parsed, handlerCtx),
      request,
      ctx,
    );
    return finishResult(codec, result);
  };
}

/**
 * {@link wrapToolsCall} for a request that carries no `requestState` (nor `inputResponses`, nor a
 * task: what `stdio-tools-call.ts` serves), without the SDK's `_invokeInputRequiredCapableHandler`
 * frame: for such a request that step only awaits the handler and returns an answer that is not
 * input-required as it is. What it does besides is handed to it as the SDK would: an input-required
 * answer (its 2026-07-28 checks; on 2025-11-25 its legacy shim, which calls the handler again for
 * later rounds), and on 2026-07-28 a rejection (the step turns a thrown -32042 into its -32603 there;
 * on 2025-11-25 it rethrows every error unchanged, so a rejection is passed on directly). Same
 * answers, same errors, fewer promises.
 */
export function wrapPlainToolsCall(server: Server, handler: UserHandler, escape: (result: Result) => void): Handler {
  const parts = server as unknown as ServerParts;
  return (request, ctx) => {
    const codec = parts._negotiatedWireCodec();
    const validated = codec.validateRequest('tools/call', request);
    if (!validated.ok) return Promise.reject(schemaFailure('request', validated));
    const parsed = validated.value;
    /** The SDK's step run on the handler's first answer `first` (later rounds call the handler again). */
    const throughStep = (first: Promise<Result>) => {
      let pending: Promise<Result> | undefined = first;
      const replay: Handler = (_request, handlerCtx) => {
        const answered = pending;
        pending = undefined;
        return answered ?? answerOf(handler, escape, parsed, handlerCtx);
      };
      return parts
        ._invokeInputRequiredCapableHandler('tools/call', replay, request, ctx)
        .then((final) => finishResult(codec, final));
    };
    const modern = codec.era === MODERN_ERA;
    let answer: Promise<Result>;
    try {
      answer = Promise.resolve(handler(parsed, ctx) as Result | Promise<Result>);
    } catch (error) {
      return modern ? throughStep(Promise.reject(error)) : Promise.reject(error);
    }
    // One reaction: escape (as `answerOf` does), then the rest.
    return answer.then(
      (result) => {
        escape(result);
        return isInputRequiredResult(result) ? throughStep(Promise.resolve(result)) : finishResult(codec, result);
      },
      modern ? (error: unknown) => throughStep(Promise.reject(error)) : undefined,
    );
  };
}
