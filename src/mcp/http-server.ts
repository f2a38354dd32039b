import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Express } from 'express';
import { ServerStateError } from '../errors.js';
import { lazyRequire } from '../lazy-module.js';
import { BaseMcpServer } from './mcp-server.js';
import './server/node-documents.js'; // servers made here get the file-system document store
import type { ServerInfo } from './server/server-info.js';
import { transportHostOf } from './server/transport-host.js';
import { HttpEndpoint, type HttpServerAddress } from './transports/http/endpoint.js';
import { resolveHttpOptions, type HttpMcpServerOptions } from './transports/http/options.js';
import type { HttpSessionEvent, HttpSessionInfo } from './transports/http/session-map.js';

export type { HttpServerAddress };

// The HTTP stack loads with the first HttpMcpServer, so importing the package root stays cheap for stdio servers.
const loadExpress = lazyRequire<typeof import('express')>('express');

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
 * The transport itself lives in `transports/http/` ({@link HttpEndpoint}); this class is
 * its facade. See `docs/http-server.md`.
 */
export class HttpMcpServer extends BaseMcpServer {
  readonly #raw: HttpMcpServerOptions;
  readonly #app: Express;
  readonly #endpoint: HttpEndpoint;
  #phase: 'new' | 'starting' | 'started' | 'stopped' = 'new';

  /**
   * @param serverInfo - `{ name, version }` sent to clients.
   * @param options - see {@link HttpMcpServerOptions} (all optional).
   * @throws InvalidOptionsError when `serverInfo` is not `{ name, version, ... }` or holds an option, when
   *   `options` has a key {@link HttpMcpServerOptions} does not define (a subclass with options of its own
   *   takes them out before calling `super`), or on an option value of the wrong type or range (negative
   *   size or timeout, path without `/`, `https` without key and cert).
   */
  constructor(serverInfo: ServerInfo, options: HttpMcpServerOptions = {}) {
    const resolved = resolveHttpOptions(serverInfo, options);
    super(serverInfo, options);
    this.#raw = options;
    this.#app = options.app ?? loadExpress()();
    this.#app.disable('x-powered-by');
    this.#endpoint = new HttpEndpoint(
      {
        ...transportHostOf(this),
        calls: this.views.calls,
        createSessionView: (authInfo: AuthInfo | undefined) => this.createFreshMcpServer({ era: 'legacy', authInfo }),
        onSessionEvent: (event) => this.#sessionEvent(event),
      },
      this.#app,
      resolved,
      options,
    );
  }

  /**
   * The express app. Routes and middleware added before `start()` run before the MCP
   * endpoint (e.g. rate limiting, your own auth); routes added later are served beside it.
   */
  get app(): Express {
    return this.#app;
  }

  /**
   * Where the server listens.
   * @throws ServerStateError before `start()` has resolved.
   */
  get address(): HttpServerAddress {
    const address = this.#endpoint.address;
    if (!address) throw new ServerStateError('HttpMcpServer.address is known only after start() resolved.');
    return address;
  }

  /**
   * With `authorization`: whether the request carries an OAuth access token for this server that
   * holds the admin scope (`authorization.adminScope`, default `mcp:admin`); `adminRouter` accepts
   * such tokens besides its own. False without `authorization` or before `start()` resolved
   * (the token's audience is the endpoint URL).
   */
  async verifyAdminToken(request: IncomingMessage): Promise<boolean> {
    const rs = this.#endpoint.resourceServer;
    if (!rs || !this.#endpoint.address) return false;
    try {
      const bearer = { authorization: request.headers.authorization, url: request.url };
      await rs.authenticate(bearer, this.#endpoint.resource(), [rs.options.adminScope]);
      return true;
    } catch {
      return false;
    }
  }

  /** Number of live legacy sessions. */
  get sessionCount(): number {
    return this.#endpoint.sessions.size;
  }

  /** The live legacy sessions, least recently active first. */
  listSessions(): HttpSessionInfo[] {
    const sessions = this.#endpoint.sessions;
    return sessions.list().map((info) => {
      const client = sessions.get(info.id)?.session.view.getClientVersion();
      const clientInfo = client && { name: client.name, version: client.version, title: client.title };
      return { ...info, era: 'legacy' as const, ...(clientInfo && { clientInfo }) };
    });
  }

  /**
   * Closes one legacy session (reason `closed`): its running calls are answered with an error,
   * its client gets 404 next and re-initializes. Returns false for an unknown id.
   */
  closeSession(sessionId: string): boolean {
    return this.#endpoint.sessions.remove(sessionId, 'closed');
  }

  /**
   * Mounts the health routes and the MCP endpoint, then listens on `host:port`.
   * @throws ServerStateError when called twice or after `stop()`.
   * @throws Error (with the Node `code`, e.g. `EADDRINUSE`) when the port cannot be bound, or what loading the
   *   `toolState` store threw. Nothing is served then and the server can be started again (free the port
   *   first), or stopped to release what it holds (watchers, a tool-state store).
   */
  async start(): Promise<void> {
    if (this.#phase !== 'new')
      throw new ServerStateError(`HttpMcpServer.start() was already called (state: ${this.#phase}).`);
    this.#phase = 'starting';
    let address: HttpServerAddress;
    try {
      await this.prepareStart();
      address = await this.#endpoint.listen();
    } catch (error) {
      // Nothing is served yet: the server stays startable, so the app can free the port and retry.
      if (this.#phase === 'starting') this.#phase = 'new';
      throw error;
    }
    this.#phase = 'started';
    this.markStarted();
    this.logger.info({ url: address.url }, 'MCP HTTP server listening');
  }

  protected override async closeTransport(): Promise<void> {
    this.#phase = 'stopped';
    await this.#endpoint.close();
  }

  #sessionEvent(event: HttpSessionEvent): void {
    this.#raw.onSessionEvent?.(event);
    if (event.type === 'created')
      this.events.safeEmit('sessionCreated', { sessionId: event.sessionId, transport: 'http' });
    else this.events.safeEmit('sessionClosed', { sessionId: event.sessionId, transport: 'http', reason: event.reason });
  }
}
