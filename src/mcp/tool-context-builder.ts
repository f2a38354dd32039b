import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  type Implementation,
  type LoggingLevel,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ToolContext, ToolLogger } from '../registry/tool-context.js';

/** Which era a request belongs to: modern requests carry the 2026-07-28 `_meta` envelope. */
export function requestEra(ctx: ServerContext): 'legacy' | 'modern' {
  return ctx.mcpReq.envelope && Object.keys(ctx.mcpReq.envelope).length > 0 ? 'modern' : 'legacy';
}

/**
 * Builds the {@link ToolContext} for one `tools/call` from the SDK's handler context.
 * Client info comes from the modern envelope when present, else from the legacy handshake.
 */
export function buildToolContext(server: Server, ctx: ServerContext): ToolContext {
  const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
  const progressToken = ctx.mcpReq._meta?.progressToken;
  const send = (level: LoggingLevel) => (message: string, data?: unknown) => {
    // Logging is best effort: a closed connection must not fail the tool.
    ctx.mcpReq.log(level, data === undefined ? message : { message, data }).catch(() => {});
  };
  const log: ToolLogger = { debug: send('debug'), info: send('info'), warn: send('warning'), error: send('error') };
  return {
    signal: ctx.mcpReq.signal,
    requestId: ctx.mcpReq.id,
    sessionId: ctx.sessionId,
    authInfo: ctx.http?.authInfo,
    clientInfo: (envelope[CLIENT_INFO_META_KEY] as Implementation | undefined) ?? server.getClientVersion(),
    clientCapabilities:
      (envelope[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities(),
    era: requestEra(ctx),
    log,
    async reportProgress({ progress, total, message }) {
      if (progressToken === undefined) return;
      await ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken, progress, total, message } })
        .catch(() => {});
    },
  };
}
