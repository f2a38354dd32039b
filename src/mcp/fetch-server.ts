import { ServerStateError, UnsupportedFeatureError } from '../errors.js';
import { EventEmitter } from 'eventemitter3';
import { BaseMcpServer, type BaseMcpServerOptions } from './mcp-server.js';
import { checkServerArguments } from './server/check-server-options.js';
import { BASE_OPTION_KEYS } from './server/option-keys.js';
import type { ServerInfo } from './server/server-info.js';
import { offerNoDocuments } from './server/document-support.js';
import { serverLifecycleOf } from './server/server-lifecycle.js';
import { installEventEmitter } from './server/server-events.js';
import { transportHostOf } from './server/transport-host.js';
import { createFetchHandler, type FetchHandler } from './transports/fetch/fetch-handler.js';
import type { FetchHandlerOptions } from './transports/fetch/fetch-options.js';

// Workers may lack node:events; eventemitter3 has Node's EventEmitter API without it.
installEventEmitter(EventEmitter);

/**
 * A server for web-standard runtimes (Bun, Deno, Cloudflare Workers, or Node behind `@hono/node-server`),
 * served by {@link toFetchHandler}. It is a `BaseMcpServer` with the same registry, toggles, prompts,
 * resources, tasks, access rules and events; nothing it imports needs Node's built-ins, so it runs on
 * workerd without `nodejs_compat`. Documents and folders are not offered: `registerDocument()` and
 * `registerFolder()` throw `UnsupportedFeatureError` (serve content with `registerResource()` or
 * `registerContentDocument()`). `start()` is optional: the first request starts the server (loads the
 * `toolState` store). `stop()` closes every handler made from it; they answer 503 afterwards. See `docs/runtimes.md`.
 *
 * @example
 * ```ts
 * const server = new FetchMcpServer({ name: 'edge', version: '1.0.0' });
 * server.registerTool(defineTool({ name: 'echo', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text }));
 * export default { fetch: toFetchHandler(server) }; // a Cloudflare Worker; Bun.serve / Deno.serve take it as well
 * ```
 */
export class FetchMcpServer extends BaseMcpServer {
  #starting?: Promise<void>;

  /**
   * @param serverInfo - `{ name, version }` sent to clients.
   * @param options - the base server options (`logger`, `toolState`, `tasks`, ...; `documents` is not usable here).
   * @throws InvalidOptionsError for server info that is not `{ name, version, ... }`, an option
   *   `BaseMcpServerOptions` does not define, or an option value of the wrong type or range.
   * @throws UnsupportedFeatureError for the `documents` option.
   */
  constructor(serverInfo: ServerInfo, options: BaseMcpServerOptions = {}) {
    checkServerArguments('FetchMcpServer', serverInfo, options, BASE_OPTION_KEYS);
    if (options.documents) {
      throw new UnsupportedFeatureError(
        'documents',
        'FetchMcpServer option documents is not available: a fetch server offers no documents (no file system).',
      );
    }
    super(serverInfo, options);
  }

  /**
   * Loads the `toolState` store and marks the server started. Called by the first request when the app
   * did not; calling it again returns the same promise.
   * @throws ServerStateError after `stop()`; what loading the `toolState` store threw.
   */
  start(): Promise<void> {
    const lifecycle = serverLifecycleOf(this);
    if (lifecycle.state === 'stopping' || lifecycle.state === 'stopped') {
      return Promise.reject(new ServerStateError('FetchMcpServer.start(): the server was stopped.'));
    }
    this.#starting ??= lifecycle.start('FetchMcpServer.start()', () => undefined);
    return this.#starting;
  }
}

offerNoDocuments(FetchMcpServer); // also where the root (with Node's document store) is loaded beside it

/**
 * Serves a server as a web-standard fetch handler, `(request: Request) => Promise<Response>`: MCP
 * Streamable HTTP at `options.path` (default `/mcp`), the 2026-07-28 era (stateless; change
 * notifications on `subscriptions/listen` streams) and the handshake era (2025-11-25 and earlier) in
 * stateless mode (each POST answered by a fresh view; no sessions, so GET and DELETE answer 405 and
 * legacy clients get no change notifications). The server's registry, toggles, access rules
 * (`canAccess`, `requiredScopes`), authorization (when configured), `Host`/`Origin` checks and body
 * limits apply as on `HttpMcpServer`, checked by the same code. See `docs/runtimes.md`.
 *
 * With a {@link FetchMcpServer} the first request starts the server, and its `stop()` closes the
 * handler. Any other `BaseMcpServer` (say an `HttpMcpServer` on Node) is served as it is; call
 * `handler.close()` when done.
 * @throws InvalidOptionsError for options that are not an object, an unknown option, `authorization` with
 *   `authenticate`, or a value of the wrong type or range (a bad size, interval, path or host list).
 * @throws TypeError when `server` is not an mcp-toolkit server.
 */
export function toFetchHandler(server: BaseMcpServer, options: FetchHandlerOptions = {}): FetchHandler {
  const host = transportHostOf(server);
  if (server instanceof FetchMcpServer) {
    const handler = createFetchHandler(host, options, () => (server.isRunning ? Promise.resolve() : server.start()));
    serverLifecycleOf(server).onClose(() => handler.close()); // run by the server's stop()
    return handler;
  }
  return createFetchHandler(host, options);
}
