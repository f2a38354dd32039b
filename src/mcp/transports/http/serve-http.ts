import type { IncomingMessage } from 'node:http';
import type { Express } from 'express';
import { lazyRequire } from '../../../lazy-module.js';
import { serverLifecycleOf, type ServableServer } from '../../server/server-lifecycle.js';
import { transportHostOf } from '../../server/transport-host.js';
import { viewFactoryOf } from '../../server/view-factory.js';
import type { HttpEndpoint, HttpServerAddress } from './endpoint.js';
import { assertKnownOptions } from '../../../known-options.js';
import {
  HTTP_SERVE_OPTION_KEYS,
  resolveHttpOptions,
  type HttpServeOptions,
  type ResolvedHttpOptions,
} from './options.js';
import type { HttpSessionEvent, HttpSessionInfo } from './session-map.js';

// The HTTP stack loads with the first HTTP transport, so importing the package root stays cheap for stdio servers.
const loadExpress = lazyRequire<typeof import('express')>('express');

/** A server's Streamable HTTP endpoint, made by {@link serveHttp}; it serves once {@link HttpServing.listen} resolved. */
export interface HttpServing {
  /**
   * The express app (the `app` option, or a new one). Routes and middleware added before `listen()`
   * run before the MCP endpoint (e.g. rate limiting, your own auth); routes added later are served beside it.
   */
  readonly app: Express;
  /**
   * Mounts the health routes and the MCP endpoint, listens on `host:port` and starts the server (loads
   * its `toolState` store, emits `started`); `server.stop()` closes every session and socket.
   * @returns where it listens.
   * @throws ServerStateError when the server was already started (by any transport) or stopped.
   * @throws Error (with the Node `code`, e.g. `EADDRINUSE`) when the port cannot be bound, or what loading the
   *   `toolState` store threw. Nothing is served then and `listen()` can be called again (free the port
   *   first), or the server stopped to release what it holds.
   */
  listen(): Promise<HttpServerAddress>;
  /** Where it listens; undefined until `listen()` resolved. */
  readonly address: HttpServerAddress | undefined;
  /** Number of live legacy sessions. */
  readonly sessionCount: number;
  /** The live legacy sessions, least recently active first, with their era and `clientInfo`. */
  listSessions(): HttpSessionInfo[];
  /**
   * Closes one legacy session (reason `closed`): its running calls are answered with an error,
   * its client gets 404 next and re-initializes. Returns false for an unknown id.
   */
  closeSession(sessionId: string): boolean;
  /**
   * With `authorization`: whether the request carries an OAuth access token for this endpoint that
   * holds the admin scope (`authorization.adminScope`, default `mcp:admin`). False without
   * `authorization` or before `listen()` resolved (the token's audience is the endpoint URL).
   */
  verifyAdminToken(request: IncomingMessage): Promise<boolean>;
}

/**
 * Serves `server` (any mcp-toolkit server, e.g. a `BaseMcpServer` subclass of your own) over MCP
 * Streamable HTTP (express 5), both protocol eras on one endpoint (default
 * `POST|GET|DELETE http://127.0.0.1:3000/mcp`): 2026-07-28 requests go to the SDK's per-request
 * handler (change notifications on `subscriptions/listen`), handshake-era requests (2025-11-25 and
 * earlier) get sessions with their own view and `Mcp-Session-Id` (or none with `stateless`).
 * Secure by default: loopback bind, Host/Origin checks, CORS off, optional `authenticate` or
 * `authorization` on every request, 4 MiB body limit. Sessions are reported on `server.events`
 * (`sessionCreated` / `sessionClosed`, `transport: 'http'`). Nothing listens until
 * {@link HttpServing.listen}. `HttpMcpServer` is a shell over this; see `docs/http-server.md`.
 * @example
 * ```ts
 * const serving = serveHttp(server, { port: 0 });
 * serving.app.get('/hello', (_req, res) => res.send('hi')); // before listen(): runs before /mcp
 * const { url } = await serving.listen();
 * ```
 * @throws InvalidOptionsError for an option {@link HttpServeOptions} does not define (base server options
 *   belong to the server's constructor), or `authorization` with `authenticate`.
 * @throws InvalidOptionsError on an invalid option value (negative size or timeout, path without `/`, `https` without
 *   key and cert).
 * @throws TypeError when `server` is not an mcp-toolkit server.
 */
export function serveHttp(server: ServableServer, options: HttpServeOptions = {}): HttpServing {
  assertKnownOptions('serveHttp option', options, HTTP_SERVE_OPTION_KEYS);
  const resolved = resolveHttpOptions(options, transportHostOf(server).serverName, 'serveHttp');
  return createHttpServing(server, resolved, options, 'serveHttp().listen()');
}

/**
 * {@link serveHttp} with its options resolved already (`HttpMcpServer` resolves them before its base constructor).
 * @param label - who starts, for the `ServerStateError` message.
 */
export function createHttpServing(
  server: ServableServer,
  resolved: ResolvedHttpOptions,
  options: HttpServeOptions,
  label: string,
): HttpServing {
  const host = transportHostOf(server);
  const lifecycle = serverLifecycleOf(server);
  const createView = viewFactoryOf(server);
  const app = options.app ?? loadExpress()();
  app.disable('x-powered-by');
  const sessionEvent = (event: HttpSessionEvent) => {
    options.onSessionEvent?.(event);
    if (event.type === 'created')
      server.events.safeEmit('sessionCreated', { sessionId: event.sessionId, transport: 'http' });
    else
      server.events.safeEmit('sessionClosed', { sessionId: event.sessionId, transport: 'http', reason: event.reason });
  };
  // The endpoint (routing, sessions, both eras' legs, authorization) loads when the server first listens:
  // a process that only imports the package root, or serves stdio, never compiles it (bench W0).
  let endpoint: HttpEndpoint | undefined;
  const makeEndpoint = async (): Promise<HttpEndpoint> => {
    const { HttpEndpoint } = await import('./endpoint.js');
    return (endpoint ??= new HttpEndpoint(
      {
        ...host,
        createSessionView: (authInfo) => createView({ era: 'legacy', authInfo }),
        onSessionEvent: sessionEvent,
      },
      app,
      resolved,
      options,
    ));
  };
  lifecycle.onClose(() => endpoint?.close() ?? Promise.resolve());
  return {
    app,
    async listen() {
      const address = await lifecycle.start(label, async () => {
        const made = await makeEndpoint();
        const bound = await made.listen();
        // stop() ran while loading or binding: its close found nothing listening yet.
        if (lifecycle.state !== 'starting') await made.close();
        return bound;
      });
      host.logger.info({ url: address.url }, 'MCP HTTP server listening');
      return address;
    },
    get address() {
      return endpoint?.address;
    },
    get sessionCount() {
      return endpoint?.sessions.size ?? 0;
    },
    listSessions() {
      if (!endpoint) return [];
      const sessions = endpoint.sessions;
      return sessions.list().map((info) => {
        const client = sessions.get(info.id)?.session.view.getClientVersion();
        const clientInfo = client && { name: client.name, version: client.version, title: client.title };
        return { ...info, era: 'legacy' as const, ...(clientInfo && { clientInfo }) };
      });
    },
    closeSession: (sessionId) => endpoint?.sessions.remove(sessionId, 'closed') ?? false,
    async verifyAdminToken(request) {
      const rs = endpoint?.resourceServer;
      if (!rs || !endpoint?.address) return false;
      try {
        const bearer = { authorization: request.headers.authorization, url: request.url };
        await rs.authenticate(bearer, endpoint.resource(), [rs.options.adminScope]);
        return true;
      } catch {
        return false;
      }
    },
  };
}
