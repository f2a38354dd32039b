import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type { RequestContext } from '../../registry/request-context.js';
import { buildToolContext, requestEra } from './tool-context-builder.js';

/**
 * Builds the {@link RequestContext} that prompts, resources and completion functions receive,
 * from the SDK's handler context: the tool context without its tool-only parts (progress,
 * elicitation, sampling), with the request's own abort signal.
 */
export function buildRequestContext(server: Server, ctx: ServerContext): RequestContext {
  const tool = buildToolContext(server, ctx, ctx.mcpReq.signal, undefined);
  const { signal, requestId, sessionId, authInfo, principal, request, clientInfo, clientCapabilities, log } = tool;
  const era = requestEra(ctx);
  return { signal, requestId, sessionId, authInfo, principal, request, clientInfo, clientCapabilities, era, log };
}

/**
 * The context of a read made by the app itself (`BaseMcpServer.readResource` without a
 * context): a signal that never aborts, `requestId: 'local'`, `era: 'legacy'`, logs dropped.
 */
export function localRequestContext(): RequestContext {
  const drop = () => {};
  return {
    signal: new AbortController().signal,
    requestId: 'local',
    era: 'legacy',
    log: { debug: drop, info: drop, warn: drop, error: drop },
  };
}
