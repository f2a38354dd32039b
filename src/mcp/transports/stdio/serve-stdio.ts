import { assertKnownOptions } from '../../../known-options.js';
import { serverLifecycleOf, type ServableServer } from '../../server/server-lifecycle.js';
import { transportHostOf } from '../../server/transport-host.js';
import { viewFactoryOf } from '../../server/view-factory.js';
import { openStdioConnection } from './stdio-connection.js';
import {
  resolveStdioOptions,
  STDIO_SERVE_OPTION_KEYS,
  type StdioServeOptions,
  type StdioSettings,
} from './stdio-options.js';

/** A server served over stdio by {@link serveStdio}. */
export interface StdioServing {
  /**
   * Resolves once the server has stopped: the client closed stdin (after `stdinCloseGraceMs`), the
   * connection failed, a handshake-era client stopped answering pings, or `server.stop()` ran. Never rejects.
   */
  readonly closed: Promise<void>;
}

/**
 * Serves `server` (any mcp-toolkit server, e.g. a `BaseMcpServer` subclass of your own) to one MCP
 * client over stdio (MCP "Transports / stdio"), in whichever era the client opens with: a
 * 2025-11-25 (or older) `initialize` handshake, or 2026-07-28 (per-request `_meta`,
 * `server/discover`, change notifications on `subscriptions/listen`). It starts the server: loads
 * its `toolState` store, emits `started` and a `sessionCreated` (`transport: 'stdio'`).
 *
 * Only JSON-RPC is written to `stdout`. Lines that are not JSON are answered -32700, JSON that is
 * not a JSON-RPC message -32600, batches are refused. When stdin closes (or the connection fails,
 * e.g. an incoming line over 10 MiB) the server stops itself (`onStop()`, views, watchers), so the
 * process can exit; `server.stop()` closes the connection. `StdioMcpServer` is a shell over this.
 * @example
 * ```ts
 * class NotesServer extends BaseMcpServer {
 *   async start() { await serveStdio(this); }
 * }
 * ```
 * @throws InvalidOptionsError for an option {@link StdioServeOptions} does not define.
 * @throws InvalidOptionsError on a bad `maxMessageBytes`, `stdinCloseGraceMs`, stream or ping option.
 * @throws ServerStateError when the server was already started (by any transport) or stopped.
 * @throws TypeError when `server` is not an mcp-toolkit server; what loading its `toolState` store threw.
 */
export async function serveStdio(server: ServableServer, options: StdioServeOptions = {}): Promise<StdioServing> {
  assertKnownOptions('serveStdio option', options, STDIO_SERVE_OPTION_KEYS);
  return startStdio(server, resolveStdioOptions('serveStdio', options), 'serveStdio()');
}

/**
 * {@link serveStdio} with its options resolved already (`StdioMcpServer` resolves them in its constructor).
 * @param label - who starts, for the `ServerStateError` message.
 */
export function startStdio(server: ServableServer, settings: StdioSettings, label: string): Promise<StdioServing> {
  const lifecycle = serverLifecycleOf(server);
  const { logger } = transportHostOf(server);
  const createView = viewFactoryOf(server);
  return lifecycle.start(label, () => {
    let sessionOpen = true;
    // The stdio connection is the session: it ends once, when stdin closes or at stop().
    const endSession = (reason: 'closed' | 'shutdown' | 'unresponsive') => {
      if (!sessionOpen) return;
      sessionOpen = false;
      server.events.safeEmit('sessionClosed', { transport: 'stdio', reason });
    };
    const stopAfter = (reason: 'closed' | 'unresponsive') => {
      endSession(reason);
      void server.stop(); // this server is done; stop so the process can exit
    };
    const handle = openStdioConnection({
      ...settings,
      createView,
      logger,
      onClosed: () => stopAfter('closed'),
      onUnresponsive: () => stopAfter('unresponsive'),
    });
    lifecycle.onClose(async () => {
      endSession('shutdown');
      await handle.close();
    });
    const closed = new Promise<void>((resolve) => server.events.once('stopped', () => resolve()));
    server.events.safeEmit('sessionCreated', { transport: 'stdio' });
    return { closed };
  });
}
