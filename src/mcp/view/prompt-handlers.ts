import {
  ProtocolError,
  ProtocolErrorCode,
  type GetPromptResult,
  type RequestStateCodec,
  type Server,
} from '@modelcontextprotocol/server';
import type { PromptRegistry } from '../../prompts/prompt-registry.js';
import { toGetPromptResult } from '../../prompts/prompt-result.js';
import { toProtocolError } from './handler-errors.js';
import { paginate } from './pagination.js';
import { inputRoundOutcome, InputRounds, type InputState } from '../context/input-rounds.js';
import { buildRequestContext } from '../context/request-context-builder.js';
import { buildToolContext, requestEra } from '../context/tool-context-builder.js';
import type { HandlerRoutes } from '../pipeline/request-pipeline.js';

/**
 * Installs `prompts/list` and `prompts/get` on a view (MCP "Prompts"). Both read the shared
 * prompt registry on every request.
 *
 * Errors: an unknown prompt or invalid arguments (a missing required argument, a value outside
 * the argument's `enum`, a schema violation) -> JSON-RPC -32602 naming the prompt and the
 * argument; an error thrown by `load()` -> see `toProtocolError`. On 2026-07-28 a `load()` waiting
 * for `context.elicit()`/`sample()`/`listRoots()` answers `input_required` (multi-round-trip).
 */
export function installPromptHandlers(
  server: Server,
  routes: HandlerRoutes,
  prompts: PromptRegistry,
  requestState: RequestStateCodec<InputState>,
): void {
  routes.setRequestHandler('prompts/list', (request, ctx) => {
    const { page, nextCursor } = paginate(prompts.list(ctx.http?.authInfo), request.params?.cursor, Infinity);
    return { prompts: page as never, ...(nextCursor !== undefined && { nextCursor }) };
  });

  routes.setRequestHandler('prompts/get', async (request, ctx): Promise<GetPromptResult> => {
    const { name, arguments: raw } = request.params;
    const prompt = prompts.getFor(name, ctx.http?.authInfo);
    if (!prompt) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown prompt "${name}". Call prompts/list to see the prompts this server offers.`,
      );
    }
    const checked = await prompt.compiled().arguments.validate(raw);
    if (!checked.ok) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid arguments for prompt "${name}": ${checked.message}`,
      );
    }
    const rounds = requestEra(ctx) === 'modern' ? InputRounds.fromContext(ctx) : undefined;
    const { elicit, elicitUrl, completeUrlElicitation, sample, listRoots } = buildToolContext(
      server,
      ctx,
      ctx.mcpReq.signal,
      rounds,
    );
    try {
      const value = await prompt.load(checked.value as never, {
        ...buildRequestContext(server, ctx),
        elicit,
        elicitUrl,
        completeUrlElicitation,
        sample,
        listRoots,
      });
      return toGetPromptResult(value, prompt.description);
    } catch (error) {
      const outcome = await inputRoundOutcome(error, rounds, requestState, ctx);
      if (outcome) return outcome as never;
      throw toProtocolError(error, `Prompt "${name}"`);
    }
  });
}
