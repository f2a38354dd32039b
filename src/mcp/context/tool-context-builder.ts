import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  inputRequired,
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type ElicitResult,
  type StandardSchemaWithJSON,
  type Implementation,
  type ListRootsResult,
  type LoggingLevel,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { InputUnavailableError, type ClientInputCapability } from '../../errors.js';
import type { ElicitOptions, ToolContext, ToolLogger } from '../../registry/tool-context.js';
import type { InputRounds } from './input-rounds.js';

/** Which era a request belongs to: modern requests carry the 2026-07-28 `_meta` envelope. */
export function requestEra(ctx: ServerContext): 'legacy' | 'modern' {
  const envelope = ctx.mcpReq.envelope;
  if (envelope) for (const _key in envelope) return 'modern'; // no key array per call
  return 'legacy';
}

/** A zod / Standard Schema becomes the flat JSON Schema elicitation puts on the wire. */
function wireSchema(schema: ElicitOptions['requestedSchema']): ElicitRequestFormParams['requestedSchema'] {
  if ('~standard' in schema) {
    const standard = schema as StandardSchemaWithJSON;
    const { $schema: _drop, ...json } = standard['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    return json as ElicitRequestFormParams['requestedSchema'];
  }
  return schema;
}

/** Something whose `signal` is made on first use (a tool call's {@link CallAbort}). */
export interface LazySignal {
  readonly signal: AbortSignal;
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

/**
 * A class, not an object literal: a literal with getters costs microseconds per call. Only the
 * caller's facts are own fields; `signal`, `log` and the input methods are prototype getters
 * made on first read (most tools use none of them, and each closure made per call showed as
 * garbage-collection time in W2 profiles). A method read once stays bound to its context, so a
 * tool may destructure it (`const { elicit, signal } = context`); an object spread copies only
 * the own fields.
 */
class CallContext implements ToolContext {
  readonly requestId: ToolContext['requestId'];
  readonly sessionId: string | undefined;
  readonly authInfo: ToolContext['authInfo'];
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;
  readonly era: ToolContext['era'];
  readonly #ctx: ServerContext;
  readonly #aborts: AbortSignal | LazySignal;
  readonly #rounds: InputRounds | undefined;
  #log: ToolLogger | undefined;
  #reportProgress: ToolContext['reportProgress'] | undefined;
  #elicit: ToolContext['elicit'] | undefined;
  #sample: ToolContext['sample'] | undefined;
  #listRoots: ToolContext['listRoots'] | undefined;

  constructor(server: Server, ctx: ServerContext, aborts: AbortSignal | LazySignal, rounds: InputRounds | undefined) {
    this.#ctx = ctx;
    this.#aborts = aborts;
    this.#rounds = rounds;
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
    const aborts = this.#aborts;
    return aborts instanceof AbortSignal ? aborts : aborts.signal;
  }

  get log(): ToolLogger {
    return (this.#log ??= toolLogger(this.#ctx));
  }

  get reportProgress(): ToolContext['reportProgress'] {
    return (this.#reportProgress ??= async ({ progress, total, message }) => {
      const progressToken = this.#ctx.mcpReq._meta?.progressToken;
      if (progressToken === undefined) return;
      await this.#ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } })
        .catch(() => {});
    });
  }

  get elicit(): ToolContext['elicit'] {
    return (this.#elicit ??= async ({ message, requestedSchema, key }): Promise<ElicitResult> => {
      this.#require('elicitation');
      const rounds = this.#rounds;
      if (rounds) return rounds.next('elicit', () => inputRequired.elicit({ message, requestedSchema }), key);
      return this.#ctx.mcpReq.elicitInput(
        { mode: 'form', message, requestedSchema: wireSchema(requestedSchema) },
        { signal: this.signal },
      );
    });
  }

  get sample(): ToolContext['sample'] {
    return (this.#sample ??= async (params, options): Promise<CreateMessageResult> => {
      this.#require('sampling');
      const rounds = this.#rounds;
      if (rounds) return rounds.next('sample', () => inputRequired.createMessage(params), options?.key);
      return (await this.#ctx.mcpReq.requestSampling(params, { signal: this.signal })) as CreateMessageResult;
    });
  }

  get listRoots(): ToolContext['listRoots'] {
    return (this.#listRoots ??= async (options): Promise<ListRootsResult> => {
      this.#require('roots');
      const rounds = this.#rounds;
      if (rounds) return rounds.next('roots', () => inputRequired.listRoots(), options?.key);
      return this.#ctx.mcpReq.send({ method: 'roots/list' }, { signal: this.signal });
    });
  }

  /** @throws InputUnavailableError when the client did not declare `capability`. */
  #require(capability: ClientInputCapability): void {
    if (!this.clientCapabilities?.[capability]) {
      throw new InputUnavailableError(
        `This tool needs the client's "${capability}" capability, which the connected client did not declare.`,
        capability,
      );
    }
  }
}

/** `context.log`: MCP log notifications tied to the request (best effort: a closed connection never fails the tool). */
function toolLogger(ctx: ServerContext): ToolLogger {
  const send = (level: LoggingLevel) => (message: string, data?: unknown) => {
    ctx.mcpReq.log(level, data === undefined ? message : { message, data }).catch(() => {});
  };
  return { debug: send('debug'), info: send('info'), warn: send('warning'), error: send('error') };
}
