import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  inputRequired,
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitResult,
  type Implementation,
  type ListRootsResult,
  type LoggingLevel,
  type Server,
  type ServerContext,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import { InputUnavailableError, type ClientInputCapability } from '../../errors.js';
import { standardToJsonSchema } from '../../registry/standard-json-schema.js';
import type { ElicitOptions, ToolContext, ToolLogger } from '../../registry/tool-context.js';
import { FOLLOW_ABORT, followSignal } from '../../registry/context-abort.js';
import { inputAnswerProblem, MAX_INPUT_ATTEMPTS, tooManyWrongAnswers } from './input-answers.js';
import type { InputRounds } from './input-rounds.js';
import { httpRequestInfo, requestPrincipal } from './request-origin.js';

/** Which era a request belongs to: modern requests carry the 2026-07-28 `_meta` envelope. */
export function requestEra(ctx: ServerContext): 'legacy' | 'modern' {
  const envelope = ctx.mcpReq.envelope;
  if (envelope) for (const _key in envelope) return 'modern'; // no key array per call
  return 'legacy';
}

/**
 * A zod / ArkType / Valibot (any Standard) schema becomes the flat JSON Schema elicitation puts on
 * the wire, converted by the toolkit on both eras (the SDK's own conversion knows no Valibot).
 * @throws InvalidToolError when the schema has no JSON Schema form.
 */
export function wireSchema(schema: ElicitOptions['requestedSchema']): ElicitRequestFormParams['requestedSchema'] {
  if ('~standard' in schema) {
    const json = standardToJsonSchema(schema as StandardSchemaV1, 'Elicitation requestedSchema');
    return json as ElicitRequestFormParams['requestedSchema'];
  }
  return schema;
}

/** Something whose `signal` is made on first use (a tool call's {@link CallAbort}). */
export interface LazySignal {
  readonly signal: AbortSignal;
  /** Calls `listener` when it aborts (not when it has already), without making `signal`; returns the way to stop. */
  follow?(listener: () => void): () => void;
  /** Whether it aborted, read without making `signal`. */
  readonly aborted?: boolean;
}

/** Whether the call was aborted (timed out, cancelled, disconnected, stopped): its answer is out or never will be. */
function callAborted(aborts: AbortSignal | LazySignal): boolean {
  return aborts instanceof AbortSignal ? aborts.aborted : (aborts.aborted ?? aborts.signal.aborted);
}

/**
 * Builds the {@link ToolContext} for one `tools/call` from the SDK's handler context.
 * Client info comes from the modern envelope when present, else from the legacy handshake.
 * `rounds` is set on the 2026-07-28 era, where elicitation and sampling are input-required rounds.
 * `aborts` gives `context.signal`, read only when the tool (or elicitation, sampling) uses it:
 * most tools never do, and making a signal costs several µs per call (profiled, W2).
 */
export function buildToolContext(
  server: Server,
  ctx: ServerContext,
  aborts: AbortSignal | LazySignal,
  rounds: InputRounds | undefined,
): ToolContext {
  return new CallContext(server, ctx, aborts, rounds);
}

/** What a {@link CallContext} keeps for its accessors (made lazily). */
interface CallState {
  readonly ctx: ServerContext;
  readonly server: Server;
  readonly aborts: AbortSignal | LazySignal;
  readonly rounds: InputRounds | undefined;
  log?: ToolLogger;
  reportProgress?: ToolContext['reportProgress'];
  elicit?: ToolContext['elicit'];
  elicitUrl?: ToolContext['elicitUrl'];
  completeUrlElicitation?: ToolContext['completeUrlElicitation'];
  sample?: ToolContext['sample'];
  listRoots?: ToolContext['listRoots'];
  principal?: ToolContext['principal'] | null;
  request?: ToolContext['request'] | null;
}

/** The key of a context's {@link CallState}: a symbol, so that it stays out of string-keyed views of it. */
const STATE = Symbol('mcp-toolkit.callState');

/**
 * A class, not an object literal: a literal with getters costs microseconds per call. Only the
 * caller's facts are own fields; `signal`, `log` and the input methods are prototype getters
 * made on first read (most tools use none of them, and each closure made per call showed as
 * garbage-collection time in W2 profiles). A method read once stays bound to its context, so a
 * tool may destructure it (`const { elicit, signal } = context`); an object spread copies only
 * the plain fields. The state sits under a symbol key rather than in `#private` fields so that a
 * `Proxy` or `Object.create(context)` wrapper still reads through to it.
 */
class CallContext implements ToolContext {
  readonly requestId: ToolContext['requestId'];
  readonly sessionId: string | undefined;
  readonly authInfo: ToolContext['authInfo'];
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;
  readonly era: ToolContext['era'];
  readonly [STATE]: CallState;

  constructor(server: Server, ctx: ServerContext, aborts: AbortSignal | LazySignal, rounds: InputRounds | undefined) {
    this[STATE] = { ctx, server, aborts, rounds };
    const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
    this.requestId = ctx.mcpReq.id;
    this.sessionId = ctx.sessionId;
    this.authInfo = ctx.http?.authInfo;
    this.clientInfo = (envelope?.[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? server.getClientVersion();
    this.clientCapabilities =
      (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
    this.era = rounds ? 'modern' : 'legacy';
  }

  get signal(): AbortSignal {
    const { aborts } = this[STATE];
    return aborts instanceof AbortSignal ? aborts : aborts.signal;
  }

  /** See `followAbort` (registry/context-abort.ts): a listener on the call's abort, without making the signal when it is lazy. */
  [FOLLOW_ABORT](listener: () => void): () => void {
    const { aborts } = this[STATE];
    if (!(aborts instanceof AbortSignal) && aborts.follow) return aborts.follow(listener);
    return followSignal(this.signal, listener);
  }

  get principal(): ToolContext['principal'] {
    const state = this[STATE];
    if (state.principal === undefined) state.principal = requestPrincipal(this.authInfo) ?? null;
    return state.principal ?? undefined;
  }

  get request(): ToolContext['request'] {
    const state = this[STATE];
    if (state.request === undefined) state.request = httpRequestInfo(state.ctx) ?? null;
    return state.request ?? undefined;
  }

  get log(): ToolLogger {
    const state = this[STATE];
    return (state.log ??= toolLogger(state.ctx));
  }

  get reportProgress(): ToolContext['reportProgress'] {
    const state = this[STATE];
    return (state.reportProgress ??= async ({ progress, total, message }) => {
      const progressToken = state.ctx.mcpReq._meta?.progressToken;
      // MCP "Progress": notifications MUST stop after completion; a tool ignoring its abort still runs.
      if (progressToken === undefined || callAborted(state.aborts)) return;
      await state.ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } })
        .catch(() => {});
    });
  }

  get elicit(): ToolContext['elicit'] {
    const state = this[STATE];
    return (state.elicit ??= async ({ message, requestedSchema, key }): Promise<ElicitResult> => {
      requireCapability(this.clientCapabilities, 'elicitation');
      if (state.rounds) {
        const build = () => inputRequired.elicit({ message, requestedSchema: wireSchema(requestedSchema) });
        return state.rounds.next('elicit', build, key, requestedSchema);
      }
      // Not the SDK's elicitInput: it refuses a wrong answer by throwing, where 2026-07-28 asks
      // again. Both eras check with inputAnswerProblem and ask again (MCP 2025-11-25 "Elicitation").
      const params = { mode: 'form' as const, message, requestedSchema: wireSchema(requestedSchema) };
      for (let attempt = 1; ; attempt += 1) {
        const answer = await state.ctx.mcpReq.send({ method: 'elicitation/create', params }, { signal: this.signal });
        const problem = await inputAnswerProblem('elicit', answer, requestedSchema);
        if (problem === undefined) return answer as ElicitResult;
        if (attempt >= MAX_INPUT_ATTEMPTS) throw tooManyWrongAnswers(key ?? 'elicitation/create', problem);
      }
    });
  }

  get elicitUrl(): ToolContext['elicitUrl'] {
    const state = this[STATE];
    return (state.elicitUrl ??= async ({ message, url, elicitationId, key }): Promise<ElicitResult> => {
      requireCapability(this.clientCapabilities, 'elicitation.url');
      if (state.rounds) return state.rounds.next('elicit', () => inputRequired.elicitUrl({ message, url }), key);
      const params = {
        mode: 'url' as const,
        message,
        url,
        elicitationId: elicitationId ?? globalThis.crypto.randomUUID(),
      };
      for (let attempt = 1; ; attempt += 1) {
        const answer = await state.ctx.mcpReq.send({ method: 'elicitation/create', params }, { signal: this.signal });
        const problem = await inputAnswerProblem('elicit', answer);
        if (problem === undefined) return answer as ElicitResult;
        if (attempt >= MAX_INPUT_ATTEMPTS) throw tooManyWrongAnswers(key ?? 'elicitation/create', problem);
      }
    });
  }

  get completeUrlElicitation(): ToolContext['completeUrlElicitation'] {
    const state = this[STATE];
    return (state.completeUrlElicitation ??= async (elicitationId) => {
      if (state.rounds || !this.clientCapabilities?.elicitation?.url) return;
      await state.server
        .createElicitationCompletionNotifier(elicitationId)()
        .catch(() => {});
    });
  }

  get sample(): ToolContext['sample'] {
    const state = this[STATE];
    return (state.sample ??= async (params, options): Promise<CreateMessageResult> => {
      requireCapability(this.clientCapabilities, 'sampling');
      if (state.rounds) return state.rounds.next('sample', () => inputRequired.createMessage(params), options?.key);
      return (await state.ctx.mcpReq.requestSampling(params, { signal: this.signal })) as CreateMessageResult;
    });
  }

  get listRoots(): ToolContext['listRoots'] {
    const state = this[STATE];
    return (state.listRoots ??= async (options): Promise<ListRootsResult> => {
      requireCapability(this.clientCapabilities, 'roots');
      if (state.rounds) return state.rounds.next('roots', () => inputRequired.listRoots(), options?.key);
      return state.ctx.mcpReq.send({ method: 'roots/list' }, { signal: this.signal });
    });
  }
}

/** Whether a client declared `capability` (`elicitation.url`: `elicitation: { url: {} }`, MCP 2025-11-25). */
export function declaresInput(
  capabilities: ClientCapabilities | undefined,
  capability: ClientInputCapability,
): boolean {
  if (capability === 'elicitation.url') return capabilities?.elicitation?.url !== undefined;
  return capabilities?.[capability] !== undefined;
}

/** @throws InputUnavailableError when the client did not declare `capability`. */
function requireCapability(capabilities: ClientCapabilities | undefined, capability: ClientInputCapability): void {
  if (!declaresInput(capabilities, capability)) {
    throw new InputUnavailableError(
      `This tool needs the client's "${capability}" capability, which the connected client did not declare.`,
      capability,
    );
  }
}

/** `context.log`: MCP log notifications tied to the request (best effort: a closed connection never fails the tool). */
function toolLogger(ctx: ServerContext): ToolLogger {
  const send = (level: LoggingLevel) => (message: string, data?: unknown) => {
    ctx.mcpReq.log(level, data === undefined ? message : { message, data }).catch(() => {});
  };
  return { debug: send('debug'), info: send('info'), warn: send('warning'), error: send('error') };
}
