import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { RATE_LIMITED_ERROR_CODE, RateLimitedError, ToolkitError, UserError } from '../../errors.js';
import { isHandlerError, type PipelineContext, type PipelineStage } from './request-pipeline.js';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/**
 * A middleware's error on `tools/call` as the tool result the caller gets (MCP "Tools / Error
 * Handling": failures the model can act on are results, not protocol errors). A toolkit error's
 * message is written for the caller and goes out verbatim; a `RateLimitedError` also carries
 * `_meta.retryAfterMs`.
 */
function toolErrorResult(context: PipelineContext, error: unknown): CallToolResult {
  const text =
    error instanceof ToolkitError
      ? error.message
      : `The call to tool "${context.toolName ?? '?'}" was refused: ${messageOf(error)}`;
  return {
    content: [{ type: 'text', text }],
    isError: true,
    ...(error instanceof RateLimitedError && { _meta: { retryAfterMs: error.retryAfterMs } }),
  };
}

/** A middleware's error on any other method as its JSON-RPC error. */
function protocolErrorOf(context: PipelineContext, error: unknown): ProtocolError {
  if (error instanceof RateLimitedError) {
    return new ProtocolError(RATE_LIMITED_ERROR_CODE, error.message, { retryAfterMs: error.retryAfterMs });
  }
  if (error instanceof UserError) return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
  if (error instanceof ToolkitError) return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `Middleware failed on ${context.method}: ${messageOf(error)}`,
  );
}

/**
 * The outermost stage while any middleware is registered: errors thrown by middleware become what
 * the caller gets (see `Middleware`); a `ProtocolError`, and anything the method's handler threw,
 * pass on unchanged (the handler's errors are already mapped as without middleware).
 */
export const middlewareErrorStage: PipelineStage = async (context, next) => {
  try {
    return await next();
  } catch (error) {
    if (error instanceof ProtocolError || isHandlerError(error)) throw error;
    if (context.method === 'tools/call') return toolErrorResult(context, error);
    throw protocolErrorOf(context, error);
  }
};
