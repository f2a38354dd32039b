import type { AddressInfo } from 'node:net';
import { SUPPORTED_PROTOCOL_VERSIONS, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import type { Express } from 'express';
import { checkSdkSseWriter } from '../../sdk-internals/cached-sse-writer.js';
import type { TransportHost } from '../../server/transport-host.js';
import { ResourceServer } from '../../../auth/resource-server.js';
import { mountResourceMetadata, resourceServerHook } from './authorization.js';
import { answerClientError } from './client-error.js';
import { scopeGate } from './scope-gate.js';
import { createModernLeg, eraRouter } from './era-router.js';
import { createModernHandler, type ModernHandler } from './modern-handler.js';
import { authGuard, corsGuard, hostOriginGuard, methodGuard } from './guards.js';
import { mountHealthRoutes, type ReadinessReport } from './health.js';
import { jsonBody } from './json-body.js';
import { createSessionfulLeg, createStatelessLeg } from './legacy-leg.js';
import type { LegacySession } from './legacy-session.js';
import type { HttpServeOptions, ResolvedHttpOptions } from './options.js';
import { SessionMap, type HttpSessionEvent } from './session-map.js';
import { createWebBridge } from './web-bridge.js';
import { expressBornRequests } from './express-born-requests.js';
import { nodeHttp, nodeHttps } from '../../../lazy-module.js';

/** Revisions the endpoint serves: the 2026-07-28 modern era, then the SDK's handshake revisions. */
const PROTOCOL_VERSIONS: readonly string[] = Object.freeze(['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS]);

/** Where a started endpoint listens. */
export interface HttpServerAddress {
  /** The bound host as configured (e.g. `127.0.0.1`, `0.0.0.0`). */
  readonly host: string;
  /** The bound TCP port (the real one when `port: 0` was asked). */
  readonly port: number;
  /** URL of the MCP endpoint, e.g. `http://127.0.0.1:3000/mcp` (a wildcard host is shown as loopback). */
  readonly url: string;
}

/** What the endpoint needs from the server it serves (`serveHttp`): its transport host and the legacy sessions' needs. */
export interface EndpointHost extends TransportHost {
  /** A tracked, long-lived view for a new legacy session. */
  createSessionView(authInfo: AuthInfo | undefined): Server;
  /** A legacy session was created or closed. */
  onSessionEvent(event: HttpSessionEvent): void;
}

/**
 * The Streamable HTTP endpoint of a server: it owns the middleware chain on the
 * express app (CORS, Host/Origin, auth, JSON body, era router), the legacy sessions, the
 * SDK's 2026-07-28 handler, the Node listener and their shutdown. `serveHttp` is its
 * facade (and `HttpMcpServer` a shell over that); see `docs/http-server.md` for the behaviour.
 */
export class HttpEndpoint {
  readonly sessions: SessionMap<LegacySession>;
  readonly #host: EndpointHost;
  readonly #options: ResolvedHttpOptions;
  readonly #raw: HttpServeOptions;
  readonly #app: Express;
  /** Set with the `authorization` option: verifies OAuth tokens (src/auth). */
  readonly resourceServer?: ResourceServer;
  #modern?: ModernHandler;
  #http?: import('node:http').Server | import('node:https').Server;
  #address?: HttpServerAddress;
  #mounted = false;

  constructor(host: EndpointHost, app: Express, options: ResolvedHttpOptions, raw: HttpServeOptions) {
    this.#host = host;
    this.#app = app;
    this.#options = options;
    this.#raw = raw;
    if (raw.authorization) this.resourceServer = new ResourceServer(raw.authorization, host.serverName);
    this.sessions = new SessionMap<LegacySession>({
      idleTimeoutMs: options.sessionIdleTimeoutMs,
      maxSessions: options.maxSessions,
      policy: options.sessionLimitPolicy,
      onEvent: (event) => host.onSessionEvent(event),
      onError: (error) => host.logger.warn({ err: error }, 'HTTP session error'),
    });
  }

  /** Where the endpoint listens, once {@link listen} resolved. */
  get address(): HttpServerAddress | undefined {
    return this.#address;
  }

  /** This endpoint's resource identifier (RFC 8707): the configured audience, else its URL once listening. */
  resource(): string {
    const rs = this.resourceServer;
    return rs ? rs.resource(this.#address?.url ?? '') : (this.#address?.url ?? '');
  }

  /**
   * Mounts the health routes and the MCP endpoint, then listens on `host:port`.
   * @throws Error (with the Node `code`, e.g. `EADDRINUSE`) when the port cannot be bound.
   */
  async listen(): Promise<HttpServerAddress> {
    if (!this.#mounted) this.#mount(); // once: a failed listen may be retried
    this.#mounted = true;
    const { host, port, path } = this.#options;
    const { https } = this.#options;
    const born = expressBornRequests(this.#app) ?? {};
    const server = https
      ? nodeHttps().createServer({ ...born, ...https }, this.#app)
      : nodeHttp().createServer(born, this.#app);
    server.on('clientError', answerClientError); // a JSON-RPC body on 431/400/408 too
    this.#http = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const bound = (server.address() as AddressInfo).port;
    const urlHost =
      host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
    this.#address = { host, port: bound, url: `${https ? 'https' : 'http'}://${urlHost}:${bound}${path}` };
    this.sessions.startSweeper();
    return this.#address;
  }

  /** Closes every session (`shutdown`), the modern handler's streams and every socket. */
  async close(): Promise<void> {
    this.sessions.stopSweeper();
    await this.sessions.closeAll('shutdown');
    await this.#modern?.close();
    const server = this.#http;
    if (server?.listening) {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
  }

  #readiness(): ReadinessReport {
    const upstreams = this.#host.upstreams?.().map(({ name, state, tools }) => ({ name, state, tools }));
    return {
      status: this.#host.isRunning() ? 'ready' : 'not-ready',
      mode: this.#options.stateless ? 'stateless' : 'sessions',
      sessions: this.sessions.size,
      protocolVersions: PROTOCOL_VERSIONS,
      ...(upstreams && upstreams.length > 0 && { upstreams }),
    };
  }

  #mount(): void {
    const options = this.#options;
    const { logger } = this.#host;
    const onSdkMismatch = (reason: string) =>
      logger.warn({ reason }, 'SDK internals changed: the cached SSE writer is off, the SDK writer is used');
    checkSdkSseWriter(onSdkMismatch);
    const logError = (error: unknown) => logger.error({ err: error }, 'MCP HTTP request failed');
    const bridge = createWebBridge(logError);
    this.#modern = createModernHandler(this.#host, options, true);
    const { handler: modern, plain } = this.#modern;
    const legacy = options.stateless
      ? createStatelessLeg(
          () => this.#host.createStatelessLegacyServer(),
          bridge,
          options.maxRequestBodyBytes,
          (error) => logger.debug({ err: error }, 'MCP stateless legacy request rejected'),
        )
      : createSessionfulLeg({
          createView: (authInfo) => this.#host.createSessionView(authInfo),
          sessions: this.sessions,
          maxSessions: options.maxSessions,
          bridge,
          transport: {
            keepAliveMs: options.keepAliveMs,
            eventStore: this.#raw.eventStore,
            maxRequestBodyBytes: options.maxRequestBodyBytes,
            calls: this.#host.calls,
            onSdkMismatch,
            ping: options.ping,
          },
          onError: (error) => logger.warn({ err: error }, 'MCP legacy session error'),
        });

    mountHealthRoutes(this.#app, options, () => this.#readiness());
    const rs = this.resourceServer;
    if (rs) mountResourceMetadata(this.#app, options.path, rs, () => this.resource());
    const authenticate = rs ? resourceServerHook(rs, () => this.resource()) : this.#raw.authenticate;
    this.#app.all(
      options.path,
      ...(options.cors ? [corsGuard(options.cors)] : []),
      methodGuard(Boolean(options.cors)),
      ...(options.allowedHosts || options.allowedOrigins
        ? [hostOriginGuard(options.allowedHosts, options.allowedOrigins)]
        : []),
      ...(authenticate ? [authGuard(authenticate, options.authChallenge, options.resourceMetadataUrl, logger)] : []),
      jsonBody(options.maxRequestBodyBytes),
      ...(rs ? [scopeGate(rs, () => this.resource(), this.#host.requiredScopes)] : []),
      eraRouter(
        legacy,
        createModernLeg(modern, bridge, (tool, auth) => this.#host.inputSchema(tool, auth), plain),
        logError,
      ),
    );
  }
}
