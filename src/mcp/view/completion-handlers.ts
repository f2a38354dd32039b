import { ProtocolError, ProtocolErrorCode, type CompleteResult, type Server } from '@modelcontextprotocol/server';
import { emptyCompleteResult, toCompleteResult, type CompleteFunction } from '../../completions/completion.js';
import type { DocumentBackend } from '../server/document-support.js';
import type { PromptRegistry } from '../../prompts/prompt-registry.js';
import { admits } from '../../registry/access-rule.js';
import type { ResourceRegistry } from '../../resources/resource-registry.js';
import { toProtocolError } from './handler-errors.js';
import { buildRequestContext } from '../context/request-context-builder.js';
import type { HandlerRoutes } from '../pipeline/request-pipeline.js';

/** What `completion/complete` looks things up in. */
export interface CompletionSources {
  readonly prompts: PromptRegistry;
  readonly resources: ResourceRegistry;
  readonly documents: DocumentBackend;
}

/**
 * Installs `completion/complete` on a view (MCP "Completion"): `ref/prompt` completes a prompt
 * argument through its `complete` function or `enum`; `ref/resource` completes a variable of
 * the resource template whose URI template equals `ref.uri`. At most 100 values are sent, with
 * `total` and `hasMore`. An argument without completion, or a fixed resource URI, gets an empty
 * result.
 *
 * A prompt or template whose access rule refuses the caller is unknown to it.
 *
 * Errors: an unknown prompt or template -> -32602; a completion function that throws -> see
 * `toProtocolError`.
 */
export function installCompletionHandlers(server: Server, routes: HandlerRoutes, sources: CompletionSources): void {
  routes.setRequestHandler('completion/complete', async (request, ctx): Promise<CompleteResult> => {
    const { ref, argument, context } = request.params;
    let complete: CompleteFunction | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = sources.prompts.getFor(ref.name, ctx.http?.authInfo);
      if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt "${ref.name}".`);
      complete = prompt.compiled().arguments.completer(argument.name);
    } else {
      const found = sources.resources.getTemplate(ref.uri);
      const template = found && admits(found.access, ctx.http?.authInfo) ? found : undefined;
      if (!template) {
        if (!found && (sources.resources.get(ref.uri) || sources.documents.get(ref.uri))) return emptyCompleteResult();
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource template "${ref.uri}".`);
      }
      complete = template.completer(argument.name);
    }
    if (!complete) return emptyCompleteResult();
    const completionContext = { ...buildRequestContext(server, ctx), arguments: context?.arguments ?? {} };
    try {
      return toCompleteResult(await complete(argument.value, completionContext));
    } catch (error) {
      throw toProtocolError(error, `Completion of "${argument.name}"`);
    }
  });
}
