import type { Readable, Writable } from 'node:stream';
import { McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../../../logger.js';
import { recognizeServeStdio } from '../../sdk-internals/stdio-channel.js';
import { startPinging, type PingSettings } from '../ping.js';
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
  /** Liveness pings to a handshake-era client; off when absent. */
  ping?: PingSettings;
  /** Called once when a handshake-era client stopped answering pings (the caller closes the connection). */
  onUnresponsive?(reason: string): void;
}

/**
 * Serves one MCP client over stdio: the SDK's `serveStdio` (era pinned from the client's first
 * message, one view per connection, `subscriptions/listen` on 2026-07-28) on our
 * {@link StdioTransport}. Returns the handle that closes it.
 */
export function openStdioConnection(options: StdioConnectionOptions): { close(): Promise<void> } {
  recognizeServeStdio(serveStdio); // its 2026-07-28 queue may be bypassed for tools/call (`stdio-channel.ts`)
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
  let stopPing: (() => void) | undefined;
  const createView: McpServerFactory = (context) => {
    const made = options.createView(context);
    const { ping, onUnresponsive } = options;
    // Only the connection's own view: the 2026-07-28 revision has no ping (and probe views are modern).
    if (ping && context.era === 'legacy') {
      void Promise.resolve(made).then((view) => {
        stopPing?.();
        stopPing = startPinging(
          view instanceof McpServer ? view.server : view,
          ping,
          () => true,
          (reason) => {
            options.logger.warn({ reason }, 'stdio client stopped answering pings; closing the connection');
            onUnresponsive?.(reason);
          },
        );
      });
    }
    return made;
  };
  const handle = serveStdio(createView, {
    transport,
    onerror: (error) => {
      lastError = error;
      options.logger.debug({ err: error }, 'stdio connection event');
    },
  });
  return {
    close: () => {
      stopPing?.();
      return handle.close();
    },
  };
}
