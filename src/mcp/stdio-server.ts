import type { Readable, Writable } from 'node:stream';
import { ServerStateError } from '../errors.js';
import { BASE_OPTION_NAMES } from './server/option-keys.js';
import { optionKeys } from '../known-options.js';
import { BaseMcpServer, type BaseMcpServerOptions } from './mcp-server.js';
import './server/node-documents.js'; // servers made here get the file-system document store
import type { ServerInfo } from './server/server-info.js';
import type { PingSettings } from './transports/ping.js';
import { resolveStdioOptions } from './transports/stdio/stdio-options.js';
import { openStdioConnection } from './transports/stdio/stdio-connection.js';

/** Options of {@link StdioMcpServer}. */
export interface StdioMcpServerOptions extends BaseMcpServerOptions {
  /** Input stream (default `process.stdin`). */
  stdin?: Readable;
  /** Output stream, JSON-RPC only (default `process.stdout`). */
  stdout?: Writable;
  /**
   * Largest JSON-RPC line this server writes, in bytes (default 8 MiB, 8,388,608). The official
   * SDK clients drop the whole stdio connection on a line over 10 MiB, so a larger message is
   * not sent: a `tools/call` result becomes a tool error (`isError: true`) saying how big it was
   * and what to do, any other response a JSON-RPC -32603 error saying the same. Raise it only
   * for clients known to accept larger lines.
   */
  maxMessageBytes?: number;
  /**
   * When stdin ends, requests already read are still answered on stdout for up to this long
   * (ms; default 10,000), then the server stops; calls still running are then aborted (reason
   * `disconnected`). A client that writes its requests and closes stdin at once (a pipe, a
   * script) thus reads every answer. `subscriptions/listen` streams are not waited for. 0 stops
   * at once, as MCP's stdio shutdown allows.
   */
  stdinCloseGraceMs?: number;
  /**
   * Liveness pings (ms; default `0`, off): a handshake-era client is sent a JSON-RPC `ping` this
   * often, and one that does not answer within `pingTimeoutMs` counts as gone: the connection
   * closes and the server stops (session close reason `unresponsive`), as when stdin ends. For
   * servers whose parent may hang without closing the pipe. 2026-07-28 clients have no ping.
   */
  pingIntervalMs?: number;
  /** How long a liveness ping waits for its answer (ms). Default 10,000. */
  pingTimeoutMs?: number;
}

/** Every key of {@link StdioMcpServerOptions}. */
const STDIO_OPTION_KEYS = optionKeys<StdioMcpServerOptions>()([
  ...BASE_OPTION_NAMES,
  'stdin',
  'stdout',
  'maxMessageBytes',
  'stdinCloseGraceMs',
  'pingIntervalMs',
  'pingTimeoutMs',
]);

/**
 * Serves one MCP client over stdio (MCP "Transports / stdio"), in whichever era the
 * client opens with: a 2025-11-25 (or older) `initialize` handshake, or a 2026-07-28
 * client (per-request `_meta`, `server/discover`, change notifications on its
 * `subscriptions/listen` streams). The connection itself lives in
 * `transports/stdio/` (the SDK's `serveStdio` on the toolkit's stdio transport).
 *
 * Only JSON-RPC is written to stdout. Lines that are not JSON are answered -32700, JSON that
 * is not a JSON-RPC message -32600 (with the request's id when readable), batches are refused.
 * When stdin closes (or the connection fails, e.g. an incoming line over 10 MiB) the server
 * stops itself (running `onStop()`, closing views and watchers), so the process can exit.
 */
export class StdioMcpServer extends BaseMcpServer {
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #maxMessageBytes: number;
  readonly #stdinCloseGraceMs: number | undefined;
  readonly #ping: PingSettings | undefined;
  #handle?: { close(): Promise<void> };
  #closed?: Promise<void>;
  #sessionOpen = false;

  /**
   * @throws InvalidOptionsError when `serverInfo` is not `{ name, version, ... }` or holds an option, when
   *   `options` has a key {@link StdioMcpServerOptions} does not define (a subclass with options of its own
   *   takes them out before calling `super`), or on a value of the wrong type or range (`maxMessageBytes`
   *   not a positive integer, negative `stdinCloseGraceMs`, a ping interval or timeout that is no valid ms).
   */
  constructor(serverInfo: ServerInfo, options: StdioMcpServerOptions = {}) {
    const resolved = resolveStdioOptions(serverInfo, options, STDIO_OPTION_KEYS);
    super(serverInfo, options);
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#maxMessageBytes = resolved.maxMessageBytes;
    this.#stdinCloseGraceMs = resolved.stdinCloseGraceMs;
    this.#ping = resolved.ping;
  }

  /**
   * Starts reading JSON-RPC from stdin.
   * @throws ServerStateError when called twice or after `stop()`.
   */
  async start(): Promise<void> {
    this.assertStartable('StdioMcpServer');
    if (this.#handle) throw new ServerStateError('StdioMcpServer.start() was already called.');
    await this.prepareStart();
    this.#handle = openStdioConnection({
      stdin: this.#stdin,
      stdout: this.#stdout,
      maxMessageBytes: this.#maxMessageBytes,
      stdinCloseGraceMs: this.#stdinCloseGraceMs,
      createView: (context) => this.createFreshMcpServer(context),
      logger: this.logger,
      onClosed: () => {
        // stdin closed, or the connection failed: this server is done; stop so the process can exit.
        this.#endSession('closed');
        void this.stop();
      },
      ping: this.#ping,
      onUnresponsive: () => {
        this.#endSession('unresponsive');
        void this.stop();
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
  #endSession(reason: 'closed' | 'shutdown' | 'unresponsive'): void {
    if (!this.#sessionOpen) return;
    this.#sessionOpen = false;
    this.events.safeEmit('sessionClosed', { transport: 'stdio', reason });
  }
}
