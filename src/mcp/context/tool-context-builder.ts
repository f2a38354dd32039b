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
  return ctx.mcpReq.envelope && Object.keys(ctx.mcpReq.envelope).length > 0 ? 'modern' : 'legacy';
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

/**
 * Builds the {@link ToolContext} for one `tools/call` from the SDK's handler context.
 * Client info comes from the modern envelope when present, else from the legacy handshake.
 * `rounds` is set on the 2026-07-28 era, where elicitation and sampling are input-required rounds.
 */
export function buildToolContext(
  server: Server,
  ctx: ServerContext,
  signal: AbortSignal,
  rounds: InputRounds | undefined,
): ToolContext {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const progressToken = ctx.mcpReq._meta?.progressToken;
  const capabilities =
    (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
  const send = (level: LoggingLevel) => (message: string, data?: unknown) => {
    // Logging is best effort: a closed connection must not fail the tool.
    ctx.mcpReq.log(level, data === undefined ? message : { message, data }).catch(() => {});
  };
  const log: ToolLogger = { debug: send('debug'), info: send('info'), warn: send('warning'), error: send('error') };
  const require = (capability: ClientInputCapability) => {
    if (!capabilities?.[capability]) {
      throw new InputUnavailableError(
        `This tool needs the client's "${capability}" capability, which the connected client did not declare.`,
        capability,
      );
    }
  };
  return {
    signal,
    requestId: ctx.mcpReq.id,
    sessionId: ctx.sessionId,
    authInfo: ctx.http?.authInfo,
    clientInfo: (envelope[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? server.getClientVersion(),
    clientCapabilities: capabilities,
    era: rounds ? 'modern' : 'legacy',
    log,
    async reportProgress({ progress, total, message }) {
      if (progressToken === undefined) return;
      await ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } })
        .catch(() => {});
    },
    async elicit({ message, requestedSchema, key }): Promise<ElicitResult> {
      require('elicitation');
      if (rounds) return rounds.next('elicit', () => inputRequired.elicit({ message, requestedSchema }), key);
      return ctx.mcpReq.elicitInput(
        { mode: 'form', message, requestedSchema: wireSchema(requestedSchema) },
        { signal },
      );
    },
    async sample(params, options): Promise<CreateMessageResult> {
      require('sampling');
      if (rounds) return rounds.next('sample', () => inputRequired.createMessage(params), options?.key);
      return (await ctx.mcpReq.requestSampling(params, { signal })) as CreateMessageResult;
    },
    async listRoots(options): Promise<ListRootsResult> {
      require('roots');
      if (rounds) return rounds.next('roots', () => inputRequired.listRoots(), options?.key);
      return ctx.mcpReq.send({ method: 'roots/list' }, { signal });
    },
  };
}
