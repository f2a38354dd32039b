import { ProtocolError } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.js';
import type { Middleware, MiddlewareContext } from '../mcp/pipeline/middleware.js';
import { principalKey } from './client-key.js';
import { checkAuditLogOptions } from './middleware-options.js';

/** One request as {@link auditLog} records it. */
export interface AuditEntry {
  /** The JSON-RPC method. */
  readonly method: string;
  /** The tool name on `tools/call`. */
  readonly tool?: string;
  /** `principal:<sub or clientId>`; undefined when unauthenticated. */
  readonly principal?: string;
  /** The legacy session id, when there is one. */
  readonly sessionId?: string;
  readonly era: 'legacy' | 'modern';
  readonly transport: 'http' | 'stdio';
  readonly requestId: string | number;
  /** `ok`; `tool-error` for a tool result with `isError: true`; `error` for a JSON-RPC error. */
  readonly outcome: 'ok' | 'tool-error' | 'error';
  /** The error's message (outcome `error`), or the tool error's first text (outcome `tool-error`). */
  readonly error?: string;
  /** The JSON-RPC error code (outcome `error`), when known. */
  readonly errorCode?: number;
  /** Wall time from entering this middleware to the answer, in ms. */
  readonly durationMs: number;
}

/** Options of {@link auditLog}. */
export interface AuditLogOptions {
  /** Called with every entry (instead of the logger, unless `logger` is given too). A throw is logged, never fails the request. */
  readonly onEntry?: (entry: AuditEntry) => void;
  /** Where entries are logged (`info`, as `{ audit: entry }`). Default: the server's logger when there is no `onEntry`. */
  readonly logger?: Logger;
}

function firstText(result: Record<string, unknown>): string | undefined {
  const content = result.content as Array<{ type?: string; text?: string }> | undefined;
  return content?.find((block) => block.type === 'text')?.text;
}

/**
 * An audit log of every request it sees: method, tool, principal, outcome and duration, to a callback
 * or a logger. Register it first (outermost) so that it sees what the others refuse.
 * @example
 * server.use(auditLog({ onEntry: (entry) => auditStore.append(entry) }));
 * @throws InvalidOptionsError for an option of the wrong type or an unknown option.
 */
export function auditLog(options: AuditLogOptions = {}): Middleware {
  checkAuditLogOptions(options);
  let entries = options.logger; // where entries are logged
  let warnings = options.logger;
  const record = (entry: AuditEntry) => {
    try {
      options.onEntry?.(entry);
    } catch (error) {
      warnings?.warn({ err: error }, 'auditLog onEntry threw');
    }
    entries?.info({ audit: entry }, `mcp ${entry.method} ${entry.outcome}`);
  };
  const base = (context: MiddlewareContext, started: number) => ({
    method: context.method,
    ...(context.toolName !== undefined && { tool: context.toolName }),
    ...(principalKey(context) !== undefined && { principal: principalKey(context) }),
    ...(context.sessionId !== undefined && { sessionId: context.sessionId }),
    era: context.era,
    transport: context.transport,
    requestId: context.requestId,
    durationMs: performance.now() - started,
  });

  const middleware: Middleware = async (context, next) => {
    const started = performance.now();
    let result: Record<string, unknown>;
    try {
      result = await next();
    } catch (error) {
      const errorCode = error instanceof ProtocolError ? error.code : undefined;
      const message = error instanceof Error ? error.message : String(error);
      // On tools/call a middleware's error reaches the caller as a tool result (see `Middleware`).
      const outcome = context.method === 'tools/call' && errorCode === undefined ? 'tool-error' : 'error';
      record({ ...base(context, started), outcome, error: message, ...(errorCode !== undefined && { errorCode }) });
      throw error;
    }
    const failed = result.isError === true;
    record({
      ...base(context, started),
      outcome: failed ? 'tool-error' : 'ok',
      ...(failed && { error: firstText(result) }),
    });
    return result;
  };
  middleware.setup = (host) => {
    warnings ??= host.logger;
    if (!options.onEntry) entries ??= host.logger;
  };
  return middleware;
}
