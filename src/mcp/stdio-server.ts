import { optionKeys } from '../known-options.js';
import { checkServerArguments } from './server/check-server-options.js';
import { BASE_OPTION_NAMES } from './server/option-keys.js';
import { BaseMcpServer, type BaseMcpServerOptions } from './mcp-server.js';
import './server/node-documents.js'; // servers made here get the file-system document store
import type { ServerInfo } from './server/server-info.js';
import { startStdio, type StdioServing } from './transports/stdio/serve-stdio.js';
import { resolveStdioOptions, STDIO_SERVE_OPTION_NAMES, type StdioSettings } from './transports/stdio/stdio-options.js';
import type { StdioServeOptions } from './transports/stdio/stdio-options.js';

/** Options of {@link StdioMcpServer}: the base server options and those of `serveStdio` ({@link StdioServeOptions}). */
export interface StdioMcpServerOptions extends BaseMcpServerOptions, StdioServeOptions {}

/** Every key of {@link StdioMcpServerOptions}. */
const STDIO_OPTION_KEYS = optionKeys<StdioMcpServerOptions>()([...BASE_OPTION_NAMES, ...STDIO_SERVE_OPTION_NAMES]);

/**
 * Serves one MCP client over stdio (MCP "Transports / stdio"), in whichever era the
 * client opens with: a 2025-11-25 (or older) `initialize` handshake, or a 2026-07-28
 * client (per-request `_meta`, `server/discover`, change notifications on its
 * `subscriptions/listen` streams). A shell over `serveStdio(server)` (`mcp-toolkit/transports`),
 * which any `BaseMcpServer` can use; the connection itself lives in `transports/stdio/`.
 *
 * Only JSON-RPC is written to stdout. Lines that are not JSON are answered -32700, JSON that
 * is not a JSON-RPC message -32600 (with the request's id when readable), batches are refused.
 * When stdin closes (or the connection fails, e.g. an incoming line over 10 MiB) the server
 * stops itself (running `onStop()`, closing views and watchers), so the process can exit.
 */
export class StdioMcpServer extends BaseMcpServer {
  readonly #settings: StdioSettings;
  #serving?: StdioServing;

  /**
   * @throws InvalidOptionsError when `serverInfo` is not `{ name, version, ... }` or holds an option, when
   *   `options` has a key {@link StdioMcpServerOptions} does not define (a subclass with options of its own
   *   takes them out before calling `super`), or on a value of the wrong type or range (`maxMessageBytes`
   *   not a positive integer, negative `stdinCloseGraceMs`, a ping interval or timeout that is no valid ms).
   */
  constructor(serverInfo: ServerInfo, options: StdioMcpServerOptions = {}) {
    checkServerArguments('StdioMcpServer', serverInfo, options, STDIO_OPTION_KEYS);
    const settings = resolveStdioOptions('StdioMcpServer', options);
    super(serverInfo, options);
    this.#settings = settings;
  }

  /**
   * Starts reading JSON-RPC from stdin (`serveStdio`).
   * @throws ServerStateError when called twice or after `stop()`; what loading the `toolState` store threw.
   */
  async start(): Promise<void> {
    this.#serving = await startStdio(this, this.#settings, 'StdioMcpServer.start()');
  }

  /** Resolves once the server has stopped: the client closed stdin, the connection failed, or `stop()` ran. */
  waitUntilClosed(): Promise<void> {
    return this.#serving?.closed ?? Promise.resolve();
  }
}
