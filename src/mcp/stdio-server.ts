import type { Readable, Writable } from 'node:stream';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { ServerStateError } from '../errors.js';
import { BaseMcpServer, type BaseMcpServerOptions } from './mcp-server.js';
import { answerInvalidMessage } from './transports/stdio/stdio-parse-errors.js';
import type { ServerInfo } from './server/server-info.js';

/** Options of {@link StdioMcpServer}. */
export interface StdioMcpServerOptions extends BaseMcpServerOptions {
  /** Input stream (default `process.stdin`). */
  stdin?: Readable;
  /** Output stream, JSON-RPC only (default `process.stdout`). */
  stdout?: Writable;
}

/**
 * Serves one MCP client over stdio (MCP "Transports / stdio"), in whichever era the
 * client opens with: a 2025-11-25 (or older) `initialize` handshake, or a 2026-07-28
 * client (per-request `_meta`, `server/discover`, change notifications on its
 * `subscriptions/listen` streams). Built on the SDK's `serveStdio`, which pins the era
 * from the first message and asks this server for one view per connection.
 *
 * Only JSON-RPC is written to stdout. When stdin closes (or the connection fails, e.g. a
 * message over the SDK's 10 MiB line limit) the server stops itself (running `onStop()`,
 * closing views and watchers), so the process can exit.
 */
export class StdioMcpServer extends BaseMcpServer {
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  #handle?: { close(): Promise<void> };
  #closed?: Promise<void>;
  #sessionOpen = false;

  constructor(serverInfo: ServerInfo, options: StdioMcpServerOptions = {}) {
    super(serverInfo, options);
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
  }

  /**
   * Starts reading JSON-RPC from stdin.
   * @throws ServerStateError when called twice or after `stop()`.
   */
  async start(): Promise<void> {
    this.assertStartable('StdioMcpServer');
    if (this.#handle) throw new ServerStateError('StdioMcpServer.start() was already called.');
    await this.prepareStart();
    let lastError: Error | undefined;
    const transport = new ClosingStdioTransport(this.#stdin, this.#stdout, () => {
      // The connection ended: stdin closed, or the SDK gave up on it (e.g. a line over its
      // 10 MiB buffer). Either way this server is done; stop so the process can exit.
      if (lastError) this.logger.warn({ err: lastError }, 'stdio connection closed after an error');
      this.#endSession('closed');
      void this.stop();
    });
    this.#handle = serveStdio((context) => this.createFreshMcpServer(context), {
      transport,
      onerror: (error) => {
        if (answerInvalidMessage(transport, error)) return;
        lastError = error;
        this.logger.debug({ err: error }, 'stdio connection event');
      },
    });
    this.#closed = new Promise<void>((resolve) => this.events.once('stopped', resolve));
    this.#sessionOpen = true;
    this.events.safeEmit('sessionCreated', { transport: 'stdio' });
    this.markStarted();
  }

  /** Resolves once the server has stopped: the client closed stdin, the connection failed, or `stop()` ran. */
  waitUntilClosed(): Promise<void> {
    return this.#closed ?? Promise.resolve();
  }

  protected override async closeTransport(): Promise<void> {
    this.#endSession('shutdown');
    await this.#handle?.close();
  }

  /** The stdio connection is the session: it ends once, when stdin closes or on stop(). */
  #endSession(reason: 'closed' | 'shutdown'): void {
    if (!this.#sessionOpen) return;
    this.#sessionOpen = false;
    this.events.safeEmit('sessionClosed', { transport: 'stdio', reason });
  }
}

/** The SDK's stdio transport, telling its owner once when it closes (stdin ended or the SDK closed it). */
class ClosingStdioTransport extends StdioServerTransport {
  #notified = false;

  constructor(
    stdin: Readable,
    stdout: Writable,
    private readonly onClosed: () => void,
  ) {
    super(stdin, stdout);
  }

  override async close(): Promise<void> {
    await super.close();
    if (this.#notified) return;
    this.#notified = true;
    this.onClosed();
  }
}
