import type { Readable, Writable } from 'node:stream';
import type { McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../../../logger.js';
import { StdioTransport } from './stdio-transport.js';

/** What one stdio connection is made of. */
export interface StdioConnectionOptions {
  stdin: Readable;
  stdout: Writable;
  /** Largest line written, in bytes (see `outgoing-limit.ts`). */
  maxMessageBytes: number;
  /** After stdin ends, how long requests already read may still be answered (ms). */
  stdinCloseGraceMs?: number;
  /** Builds the connection's view (`createFreshMcpServer`). */
  createView: McpServerFactory;
  logger: Logger;
  /** Called once when the connection ends: stdin closed, the output failed, or a line was too large. */
  onClosed(): void;
}

/**
 * Serves one MCP client over stdio: the SDK's `serveStdio` (era pinned from the client's first
 * message, one view per connection, `subscriptions/listen` on 2026-07-28) on our
 * {@link StdioTransport}. Returns the handle that closes it.
 */
export function openStdioConnection(options: StdioConnectionOptions): { close(): Promise<void> } {
  let lastError: Error | undefined;
  const transport = new StdioTransport(options.stdin, options.stdout, {
    maxMessageBytes: options.maxMessageBytes,
    stdinCloseGraceMs: options.stdinCloseGraceMs,
    logger: options.logger,
    onClosed: () => {
      if (lastError) options.logger.warn({ err: lastError }, 'stdio connection closed after an error');
      options.onClosed();
    },
  });
  return serveStdio(options.createView, {
    transport,
    onerror: (error) => {
      lastError = error;
      options.logger.debug({ err: error }, 'stdio connection event');
    },
  });
}
