import type { IncomingMessage } from 'node:http';
import type { Express } from 'express';
import { ServerStateError } from '../errors.js';
import { BaseMcpServer } from './mcp-server.js';
import './server/node-documents.js'; // servers made here get the file-system document store
import type { ServerInfo } from './server/server-info.js';
import type { HttpServerAddress } from './transports/http/endpoint.js';
import { checkServerArguments } from './server/check-server-options.js';
import { HTTP_OPTION_KEYS, resolveHttpOptions, type HttpMcpServerOptions } from './transports/http/options.js';
import { createHttpServing, type HttpServing } from './transports/http/serve-http.js';
import type { HttpSessionInfo } from './transports/http/session-map.js';

export type { HttpServerAddress };

/**
 * Serves MCP over Streamable HTTP (express 5), both protocol eras on one endpoint
 * (default `POST|GET|DELETE http://127.0.0.1:3000/mcp`):
 *
 * - 2026-07-28 requests (per-request `_meta` envelope) go to the SDK's per-request
 *   handler; change notifications reach their `subscriptions/listen` streams.
 * - Handshake-era requests (2025-11-25 and earlier) get sessions: `initialize`
 *   creates one with its own view and `Mcp-Session-Id`; POST / GET (SSE) / DELETE as
 *   the 2025-11-25 Streamable HTTP transport defines. Sessions end on DELETE, on
 *   transport close, when idle, when evicted at the cap, or at `stop()`; see
 *   {@link HttpMcpServerOptions}.
 *
 * Every view reads the shared registry, so `disableTool` and friends reach every
 * client, each told exactly once. Secure by default: loopback bind, Host/Origin
 * checks, CORS off, optional `authenticate` hook on every request, 4 MiB body limit.
 * A shell over `serveHttp(server)` (`mcp-toolkit/transports`), which any `BaseMcpServer`
 * can use; the transport itself lives in `transports/http/`. See `docs/http-server.md`.
 */
export class HttpMcpServer extends BaseMcpServer {
  readonly #serving: HttpServing;

  /**
   * @param serverInfo - `{ name, version }` sent to clients.
   * @param options - see {@link HttpMcpServerOptions} (all optional).
   * @throws InvalidOptionsError when `serverInfo` is not `{ name, version, ... }` or holds an option, when
   *   `options` has a key {@link HttpMcpServerOptions} does not define (a subclass with options of its own
   *   takes them out before calling `super`), or on an option value of the wrong type or range (negative
   *   size or timeout, path without `/`, `https` without key and cert), or a `healthPath` / `readyPath`
   *   that another route already answers (the MCP `path`, each other, the OAuth metadata).
   */
  constructor(serverInfo: ServerInfo, options: HttpMcpServerOptions = {}) {
    checkServerArguments('HttpMcpServer', serverInfo, options, HTTP_OPTION_KEYS);
    const resolved = resolveHttpOptions(options, serverInfo.name);
    super(serverInfo, options);
    this.#serving = createHttpServing(this, resolved, options, 'HttpMcpServer.start()');
  }

  /**
   * The express app. Routes and middleware added before `start()` run before the MCP
   * endpoint (e.g. rate limiting, your own auth); routes added later are served beside it.
   */
  get app(): Express {
    return this.#serving.app;
  }

  /**
   * Where the server listens.
   * @throws ServerStateError before `start()` has resolved.
   */
  get address(): HttpServerAddress {
    const address = this.#serving.address;
    if (!address) throw new ServerStateError('HttpMcpServer.address is known only after start() resolved.');
    return address;
  }

  /**
   * With `authorization`: whether the request carries an OAuth access token for this server that
   * holds the admin scope (`authorization.adminScope`, default `mcp:admin`); `adminRouter` accepts
   * such tokens besides its own. False without `authorization` or before `start()` resolved
   * (the token's audience is the endpoint URL).
   */
  verifyAdminToken(request: IncomingMessage): Promise<boolean> {
    return this.#serving.verifyAdminToken(request);
  }

  /** Number of live legacy sessions. */
  get sessionCount(): number {
    return this.#serving.sessionCount;
  }

  /** The live legacy sessions, least recently active first. */
  listSessions(): HttpSessionInfo[] {
    return this.#serving.listSessions();
  }

  /**
   * Closes one legacy session (reason `closed`): its running calls are answered with an error,
   * its client gets 404 next and re-initializes. Returns false for an unknown id.
   */
  closeSession(sessionId: string): boolean {
    return this.#serving.closeSession(sessionId);
  }

  /**
   * Mounts the health routes and the MCP endpoint, then listens on `host:port` (`serveHttp(...).listen()`).
   * @throws ServerStateError when called twice or after `stop()`.
   * @throws Error (with the Node `code`, e.g. `EADDRINUSE`) when the port cannot be bound, or what loading the
   *   `toolState` store threw. Nothing is served then and the server can be started again (free the port
   *   first), or stopped to release what it holds (watchers, a tool-state store).
   */
  async start(): Promise<void> {
    await this.#serving.listen();
  }
}
