import type { AuthorizationOptions } from '../auth/options.js';
import { fileURLToPath } from 'node:url';
import { DocumentStore } from '../documents/document-store.js';
import { ClusterUnavailableError } from '../errors.js';
import { createDefaultLogger, type Logger } from '../logger.js';
import type { BaseMcpServer } from '../mcp/mcp-server.js';
import type { HttpMcpServer } from '../mcp/http-server.js';
import type { ServerInfo } from '../mcp/server/server-info.js';
import type { HttpsOptions } from '../mcp/transports/http/options.js';
import type { SessionLimitPolicy } from '../mcp/transports/http/session-map.js';
import type { StdioMcpServer } from '../mcp/stdio-server.js';
import { createDocumentTools } from '../document-tools/document-tools.js';
import type { ServeSummary } from './connect-help.js';
import type { DocumentLimits } from './document-limits.js';

/** Options of the `serve` command. */
export interface ServeOptions {
  folder: string;
  extensions?: string[];
  quiet?: boolean;
  /** Watch the folder so changes on disk reach clients (`list_changed`, `resources/updated`). Default true. */
  watch?: boolean;
  /** JSON file keeping the disabled tools across restarts (`FileToolStateStore`). Default: none (memory). */
  stateFile?: string;
  /** Conversion, read and watch limits of the document store (defaults: see `DocumentStoreOptions`). */
  limits?: DocumentLimits;
  /** Liveness pings to handshake-era clients (ms); see `pingIntervalMs` of the servers. Default off. */
  pingIntervalMs?: number;
}

/** Options of `serve --http`: where to listen (defaults 127.0.0.1:3000). */
export interface ServeHttpOptions extends ServeOptions {
  host?: string;
  /** TCP port; 0 picks a free one. */
  port?: number;
  /** See `HttpMcpServerOptions`: idle time (ms) before a legacy session is closed, 0 never. */
  sessionIdleTimeoutMs?: number;
  /** See `HttpMcpServerOptions`: most live legacy sessions. */
  maxSessions?: number;
  /** See `HttpMcpServerOptions`: what `initialize` does at the cap. */
  sessionLimitPolicy?: SessionLimitPolicy;
  /**
   * Redis URL: join the cluster of replicas sharing it (docs/scaling.md). The `requestState` key
   * comes from `MCP_TOOLKIT_REQUEST_STATE_KEY` (>= 32 bytes) when set, else from Redis.
   */
  redis?: string;
  /**
   * When Redis does not answer at start: `'fail'` (default) throws `ClusterUnavailableError`
   * with the CLI's advice; `'local'` serves with local state and joins once Redis answers.
   */
  redisUnavailable?: 'fail' | 'local';
  /** Mount the settings page and admin API at `/admin`, guarded by this bearer token. Default: off. */
  adminToken?: string;
  /** Serve HTTPS (see `HttpMcpServerOptions.https`). Default: plain HTTP. */
  https?: HttpsOptions;
  /** OAuth resource server (`--auth-issuer`; see `HttpMcpServerOptions.authorization`). */
  authorization?: AuthorizationOptions;
  /**
   * The token was generated for this run: the settings URL is printed even when `quiet`, as
   * nothing else can tell it.
   */
  adminTokenGenerated?: boolean;
}

/** The CLI watches its folder unless told not to (`--no-watch`). */
function documentStore(options: ServeOptions): DocumentStore {
  const { listPageSize: _tools, ...store } = options.limits ?? {};
  return new DocumentStore({ ...store, watch: options.watch !== false });
}

/**
 * The CLI logs warnings and errors only, unless `MCP_TOOLKIT_LOG_LEVEL` says otherwise: the banner
 * says what info lines would, and a JSON line amid it reads as noise.
 */
export function cliLogger() {
  return createDefaultLogger(process.env.MCP_TOOLKIT_LOG_LEVEL || 'warn');
}

/**
 * Server options shared by both transports: documents, quiet logger, tool state file, pings. The state
 * file's store loads only when one is given: a plain `serve` starts without compiling it.
 */
async function commonOptions(options: ServeOptions, logger: Logger = cliLogger()) {
  const toolState = options.stateFile
    ? new (await import('../state/file-tool-state-store.js')).FileToolStateStore(options.stateFile)
    : undefined;
  return {
    documents: documentStore(options),
    ...(options.pingIntervalMs !== undefined && { pingIntervalMs: options.pingIntervalMs }),
    logger,
    ...(toolState && { toolState }),
  };
}

/** The CLI's default folder: the package's own `docs/`. */
export function defaultFolder(): string {
  return fileURLToPath(new URL('../../docs', import.meta.url));
}

function serverInfo(options: ServeOptions, version: string): ServerInfo {
  return {
    name: 'mcp-toolkit-documents',
    title: 'Documents',
    version,
    instructions: `Documents from ${options.folder}, exposed as resources and through the document tools.`,
  };
}

/** Registers the folder and the document tools; returns the banner summary (without transport). */
export function registerFolder(
  server: BaseMcpServer,
  options: Pick<ServeOptions, 'folder' | 'extensions' | 'limits'>,
): Omit<ServeSummary, 'transport' | 'url'> {
  const resources = server.registerFolder({ path: options.folder, extensions: options.extensions });
  if (options.extensions?.length && resources.length === 0) {
    process.stderr.write(
      `mcp-toolkit: warning: --ext ${options.extensions.join(',')} matched no file in ${options.folder} ` +
        '(check the spelling: extensions match case-insensitively, with or without the dot; dot-files, ' +
        'dot-folders and node_modules are never served)\n',
    );
  }
  // The index builds at start, in the background: a first search need not wait for every file to be read.
  const tools = { listPageSize: options.limits?.listPageSize, indexInBackground: true };
  server.registerTool(createDocumentTools(server.documents, tools));
  return {
    folder: options.folder,
    toolNames: server.getToolStates().map(({ tool }) => tool.name),
    resourceCount: resources.length,
    skipped: server.documents.skipped(),
  };
}

/** Prints how to connect (to stderr), unless `quiet`; its formatting (shell quoting) loads only then. */
async function banner(summary: ServeSummary, quiet: boolean | undefined): Promise<void> {
  if (quiet) return;
  const { connectHelp } = await import('./connect-help.js');
  process.stderr.write(connectHelp(summary, process.argv[1] ?? 'mcp-toolkit'));
}

/**
 * Serves a folder of documents over stdio until stdin closes: every matching file as
 * a resource, plus the `list_documents` / `read_document` tools.
 * @throws InvalidPathError when `folder` is not a directory.
 */
export async function serveStdioFolder(options: ServeOptions, version: string): Promise<StdioMcpServer> {
  // Each transport is imported only when chosen: a stdio server never loads the HTTP stack.
  const { StdioMcpServer } = await import('../mcp/stdio-server.js');
  const server = new StdioMcpServer(serverInfo(options, version), await commonOptions(options));
  const summary = registerFolder(server, options);
  await server.start();
  await banner({ ...summary, transport: 'stdio' }, options.quiet);
  return server;
}

/** `--redis`: the cluster, or a `ClusterUnavailableError` whose advice names the CLI's flags. */
export async function joinCluster(redis: string, onUnavailable: 'fail' | 'local' | undefined, logger: Logger) {
  const { createCluster } = await import('../cluster/create-cluster.js');
  const timeoutMs = 5_000;
  try {
    return await createCluster({
      redis,
      requestStateKey: process.env.MCP_TOOLKIT_REQUEST_STATE_KEY,
      logger,
      onUnavailable,
      connectTimeoutMs: timeoutMs,
    });
  } catch (error) {
    if (!(error instanceof ClusterUnavailableError)) throw error;
    throw new ClusterUnavailableError(
      `Redis at ${error.url} did not answer within ${timeoutMs} ms. Start redis-server (Debian: apt-get install ` +
        'redis-server), check the --redis URL, or add --redis-unavailable local to serve with local state now ' +
        'and join the cluster when Redis answers.',
      error.url,
      { cause: error },
    );
  }
}

/**
 * Serves a folder of documents over Streamable HTTP (both protocol eras) on
 * `host:port` (default `127.0.0.1:3000`) until the server is stopped; the banner
 * with the endpoint URL goes to stderr.
 * @throws InvalidPathError when `folder` is not a directory.
 * @throws Error with code `EADDRINUSE` when the port is taken.
 * @throws ClusterUnavailableError when `redis` is given and Redis does not answer within 5 s (unless
 *   `redisUnavailable` is `'local'`); its message names the CLI's flags.
 */
export async function serveHttpFolder(options: ServeHttpOptions, version: string): Promise<HttpMcpServer> {
  const logger = cliLogger(); // one logger for the server and its cluster membership
  // Like the transports, the cluster and admin modules load only when asked for.
  const cluster = options.redis ? await joinCluster(options.redis, options.redisUnavailable, logger) : undefined;
  const { HttpMcpServer } = await import('../mcp/http-server.js');
  const server = new HttpMcpServer(serverInfo(options, version), {
    host: options.host,
    port: options.port,
    sessionIdleTimeoutMs: options.sessionIdleTimeoutMs,
    maxSessions: options.maxSessions,
    sessionLimitPolicy: options.sessionLimitPolicy,
    ...(options.https && { https: options.https }),
    ...(options.authorization && { authorization: options.authorization }),
    ...(await commonOptions(options, logger)),
    cluster,
  });
  if (options.adminToken) {
    const { adminRouter } = await import('../admin/admin-router.js');
    server.app.use('/admin', adminRouter(server, { token: options.adminToken }));
  }
  const host = options.host ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    process.stderr.write(
      options.authorization
        ? `mcp-toolkit: warning: binding ${host} without Host/Origin checks; OAuth tokens are required ` +
            '(--auth-issuer). Use the library with `allowedHosts` against DNS rebinding (docs/http-server.md).\n'
        : `mcp-toolkit: warning: binding ${host} exposes the documents to the network, without Host/Origin ` +
            'checks or authentication. Put it behind a proxy that authenticates, pass --auth-issuer, or use ' +
            'the library with `allowedHosts` and `authenticate` (docs/http-server.md).\n',
    );
  }
  const summary = registerFolder(server, options);
  await server.start();
  const url = server.address.url;
  const settingsUrl = options.adminToken
    ? `${new URL('/admin/', url).href}#token=${encodeURIComponent(options.adminToken)}`
    : undefined;
  await banner({ ...summary, transport: 'http', url, settingsUrl, stateFile: options.stateFile }, options.quiet);
  if (options.quiet && settingsUrl && options.adminTokenGenerated) {
    process.stderr.write(`mcp-toolkit: settings page (keep this URL private): ${settingsUrl}\n`);
  }
  return server;
}
