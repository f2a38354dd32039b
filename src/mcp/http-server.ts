import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { Express } from 'express';
import { ServerStateError } from '../errors.js';
import { lazyRequire } from '../lazy-module.js';
import { BaseMcpServer } from './mcp-server.js';
import type { ServerInfo } from './server/server-info.js';
import { ViewTools } from './view/view-tools.js';
import { createModernLeg, eraRouter } from './transports/http/era-router.js';
import { authGuard, corsGuard, hostOriginGuard } from './transports/http/guards.js';
import { jsonBody } from './transports/http/json-body.js';
import { mountHealthRoutes, type ReadinessReport } from './transports/http/health.js';
import { createSessionfulLeg, createStatelessLeg } from './transports/http/legacy-leg.js';
import type { LegacySession } from './transports/http/legacy-session.js';
import { resolveHttpOptions, type HttpMcpServerOptions, type ResolvedHttpOptions } from './transports/http/options.js';
import { SessionMap, type HttpSessionEvent, type HttpSessionInfo } from './transports/http/session-map.js';
import { createWebBridge } from './transports/http/web-bridge.js';

// The HTTP stack loads with the first HttpMcpServer, so importing the package root stays cheap for stdio servers.
const loadExpress = lazyRequire<typeof import('express')>('express');

/** Revisions the endpoint serves: the 2026-07-28 modern era, then the SDK's handshake revisions. */
const PROTOCOL_VERSIONS: readonly string[] = Object.freeze(['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS]);

/** Where a started {@link HttpMcpServer} listens. */
export interface HttpServerAddress {
  /** The bound host as configured (e.g. `127.0.0.1`, `0.0.0.0`). */
  readonly host: string;
  /** The bound TCP port (the real one when `port: 0` was asked). */
  readonly port: number;
  /** URL of the MCP endpoint, e.g. `http://127.0.0.1:3000/mcp` (a wildcard host is shown as loopback). */
  readonly url: string;
}

/**
 * Serves MCP over Streamable HTTP (express 5), both protocol eras on one endpoint
 * (default `POST|GET|DELETE http://127.0.0.1:3000/mcp`):
 *
 * - 2026-07-28 requests (per-request `_meta` envelope) go to the SDK's per-request
 *   handler; change notifications reach their `subscriptions/listen` streams.
 * - Handshake-era requests (2025-11-25 and earlier) get sessions: `initialize`
 *   creates one with its own view and `Mcp-Session-Id`; POST / GET (SSE) / DELETE as
 *   the 2025-11-25 Streamable HTTP transport defines. Sessions end on DELETE, on
 *   transport close, when idle, or at `stop()`; see {@link HttpMcpServerOptions}.
 *
 * Every view reads the shared registry, so `disableTool` and friends reach every
 * client, each told exactly once. Secure by default: loopback bind, Host/Origin
 * checks, CORS off, optional `authenticate` hook on every request, 4 MiB body limit.
 * See `docs/http-server.md`.
 */
export class HttpMcpServer extends BaseMcpServer {
  readonly #options: ResolvedHttpOptions;
  readonly #raw: HttpMcpServerOptions;
  readonly #app: Express;
  readonly #sessions: SessionMap<LegacySession>;
  #phase: 'new' | 'starting' | 'started' | 'stopped' = 'new';
  #modern?: McpHttpHandler;
  #removeSink?: () => void;
  #http?: http.Server;
  #address?: HttpServerAddress;

  /**
   * @param serverInfo - `{ name, version }` sent to clients.
   * @param options - see {@link HttpMcpServerOptions} (all optional).
   * @throws RangeError on an invalid option value (negative size or timeout, path without `/`).
   */
  constructor(serverInfo: ServerInfo, options: HttpMcpServerOptions = {}) {
    super(serverInfo, options);
    this.#raw = options;
    this.#options = resolveHttpOptions(options, serverInfo.name);
    this.#app = options.app ?? loadExpress()();
    this.#app.disable('x-powered-by');
    this.#sessions = new SessionMap<LegacySession>({
      idleTimeoutMs: this.#options.sessionIdleTimeoutMs,
      maxSessions: this.#options.maxSessions,
      policy: this.#options.sessionLimitPolicy,
      onEvent: (event) => this.#sessionEvent(event),
      onError: (error) => this.logger.warn({ err: error }, 'HTTP session error'),
    });
  }

  /**
   * The express app. Routes and middleware added before `start()` run before the
   * MCP endpoint (e.g. rate limiting, your own auth); routes added later are served
   * beside it.
   */
  get app(): Express {
    return this.#app;
  }

  /**
   * Where the server listens.
   * @throws ServerStateError before `start()` has resolved.
   */
  get address(): HttpServerAddress {
    if (!this.#address) throw new ServerStateError('HttpMcpServer.address is known only after start() resolved.');
    return this.#address;
  }

  /** Number of live legacy sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** The live legacy sessions, least recently active first. */
  listSessions(): HttpSessionInfo[] {
    return this.#sessions.list();
  }

  /** Closes one legacy session (reason `closed`); its client gets 404 next and re-initializes. Returns false for an unknown id. */
  closeSession(sessionId: string): boolean {
    return this.#sessions.remove(sessionId, 'closed');
  }

  /**
   * Mounts the health routes and the MCP endpoint, then listens on `host:port`.
   * @throws ServerStateError when called twice or after `stop()`.
   * @throws Error (with the Node `code`, e.g. `EADDRINUSE`) when the port cannot be bound; the server is then stopped.
   */
  async start(): Promise<void> {
    if (this.#phase !== 'new')
      throw new ServerStateError(`HttpMcpServer.start() was already called (state: ${this.#phase}).`);
    this.#phase = 'starting';
    this.#mount();
    const { host, port, path } = this.#options;
    const server = http.createServer(this.#app);
    this.#http = server;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      await this.stop();
      throw error;
    }
    const bound = (server.address() as AddressInfo).port;
    const urlHost =
      host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
    this.#address = { host, port: bound, url: `http://${urlHost}:${bound}${path}` };
    this.#sessions.startSweeper();
    this.#phase = 'started';
    this.markStarted();
    this.logger.info({ url: this.#address.url }, 'MCP HTTP server listening');
  }

  protected override async closeTransport(): Promise<void> {
    this.#phase = 'stopped';
    this.#sessions.stopSweeper();
    this.#removeSink?.();
    await this.#sessions.closeAll('shutdown');
    await this.#modern?.close();
    const server = this.#http;
    if (server?.listening) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  }

  #sessionEvent(event: HttpSessionEvent): void {
    this.#raw.onSessionEvent?.(event);
    if (event.type === 'created')
      this.events.safeEmit('sessionCreated', { sessionId: event.sessionId, transport: 'http' });
    else this.events.safeEmit('sessionClosed', { sessionId: event.sessionId, transport: 'http', reason: event.reason });
  }

  #readiness(): ReadinessReport {
    return {
      status: this.isRunning ? 'ready' : 'not-ready',
      mode: this.#options.stateless ? 'stateless' : 'sessions',
      sessions: this.#sessions.size,
      protocolVersions: PROTOCOL_VERSIONS,
    };
  }

  #mount(): void {
    const options = this.#options;
    const logError = (error: unknown) => this.logger.error({ err: error }, 'MCP HTTP request failed');
    const bridge = createWebBridge(logError);
    const modern = createMcpHandler(() => this.createRequestScopedServer(), {
      legacy: 'reject',
      onerror: (error) => this.logger.debug({ err: error }, 'MCP modern-era request rejected'),
      keepAliveMs: options.keepAliveMs,
      maxRequestBodySize: options.maxRequestBodyBytes,
      maxSubscriptions: options.maxListenStreams,
    });
    this.#modern = modern;
    const tools = new ViewTools(this.registry);
    const paramSchemas = (name: string, auth: AuthInfo | undefined) =>
      tools.resolve(name, auth).tool?.compiled().listed.inputSchema;
    this.#removeSink = this.views.addSink(modern.notify);
    const legacy = options.stateless
      ? createStatelessLeg(
          () => this.createRequestScopedServer(),
          bridge,
          options.maxRequestBodyBytes,
          (error) => this.logger.debug({ err: error }, 'MCP stateless legacy request rejected'),
        )
      : createSessionfulLeg({
          createView: (authInfo?: AuthInfo) => this.createFreshMcpServer({ era: 'legacy', authInfo }),
          sessions: this.#sessions,
          maxSessions: options.maxSessions,
          bridge,
          transport: {
            keepAliveMs: options.keepAliveMs,
            eventStore: this.#raw.eventStore,
            maxRequestBodyBytes: options.maxRequestBodyBytes,
          },
          onError: (error) => this.logger.warn({ err: error }, 'MCP legacy session error'),
        });

    mountHealthRoutes(this.#app, options, () => this.#readiness());
    this.#app.all(
      options.path,
      ...(options.cors ? [corsGuard(options.cors)] : []),
      ...(options.allowedHosts || options.allowedOrigins
        ? [hostOriginGuard(options.allowedHosts, options.allowedOrigins)]
        : []),
      ...(this.#raw.authenticate
        ? [authGuard(this.#raw.authenticate, options.authChallenge, options.resourceMetadataUrl, this.logger)]
        : []),
      jsonBody(options.maxRequestBodyBytes),
      eraRouter(legacy, createModernLeg(modern, bridge, paramSchemas), logError),
    );
  }
}
