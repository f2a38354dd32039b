import { pino, type Logger as PinoLogger } from 'pino';

/**
 * The logger the toolkit writes its own diagnostics to. Any pino-compatible logger
 * fits (`logger.warn({ err }, 'message')`). Never write to stdout: in stdio mode
 * stdout carries JSON-RPC only.
 */
export type Logger = Pick<PinoLogger, 'debug' | 'info' | 'warn' | 'error' | 'child'>;

/**
 * Creates the default logger: pino writing JSON lines to stderr (fd 2) at `level`
 * (default from `MCP_TOOLKIT_LOG_LEVEL`, else `info`).
 */
export function createDefaultLogger(level = process.env.MCP_TOOLKIT_LOG_LEVEL ?? 'info'): Logger {
  return pino({ name: 'mcp-toolkit', level }, pino.destination({ fd: 2, sync: true }));
}
