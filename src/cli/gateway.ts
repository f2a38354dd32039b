import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadClient } from '../composition/client-loader.js';
import { parseServersConfig } from '../composition/servers-config.js';
import { UpstreamError } from '../errors.js';
import { MAX_TIMER_MS } from '../option-values.js';
import { DocumentStore } from '../documents/document-store.js';
import type { BaseMcpServer } from '../mcp/mcp-server.js';
import type { ServerInfo } from '../mcp/server/server-info.js';
import { FileToolStateStore } from '../state/file-tool-state-store.js';
import { cliLogger, joinCluster, registerFolder } from './serve.js';

/** Options of the `gateway` command. */
export interface GatewayOptions {
  /** The `mcpServers` JSON file. */
  config: string;
  transport: 'stdio' | 'http';
  host?: string;
  port?: number;
  /** A folder served beside the upstreams (resources and the document tools). */
  folder?: string;
  extensions?: string[];
  /** JSON file keeping the disabled tools across restarts. */
  stateFile?: string;
  /** Settings page and admin API at `/admin` with this bearer token (HTTP only). */
  adminToken?: string;
  adminTokenGenerated?: boolean;
  redis?: string;
  redisUnavailable?: 'fail' | 'local';
  /** Longest wait (ms) for the upstreams' first connection before serving. */
  upstreamWaitMs: number;
  quiet?: boolean;
}

const INFO = (version: string): ServerInfo => ({
  name: 'mcp-toolkit-gateway',
  title: 'Gateway',
  version,
  instructions: 'Tools of several MCP servers; each tool name starts with the name of the server it comes from.',
});

/** The config file's text; a missing or unreadable file is an `INVALID_UPSTREAM` naming it. */
function readConfig(configPath: string): string {
  try {
    return readFileSync(configPath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : String(error);
    throw new UpstreamError('INVALID_UPSTREAM', '', `${configPath}: ${why} (--config names an mcpServers JSON file)`);
  }
}

/**
 * Serves the upstreams of an `mcpServers` file (and optionally a folder) as one MCP server, over
 * stdio or Streamable HTTP. Serving starts once every upstream connected or `upstreamWaitMs`
 * passed (the late ones join later: clients get `list_changed`). The banner (stderr) names each
 * upstream and its state, never its environment or headers.
 * @throws UpstreamError (`INVALID_UPSTREAM`) for a missing or unusable config file; MissingDependencyError when
 *   the file names upstreams and `@modelcontextprotocol/client` is not installed; the errors of `serve`.
 */
export async function serveGateway(options: GatewayOptions, version: string): Promise<BaseMcpServer> {
  const configPath = path.resolve(options.config);
  const upstreams = parseServersConfig(readConfig(configPath), configPath);
  // Without the client package no upstream can ever connect: say so now rather than serve nothing.
  if (upstreams.length > 0) await loadClient();
  const logger = cliLogger();
  const common = {
    logger,
    ...(options.folder && { documents: new DocumentStore({ watch: true }) }),
    ...(options.stateFile && { toolState: new FileToolStateStore(options.stateFile) }),
  };
  let server: BaseMcpServer;
  if (options.transport === 'stdio') {
    const { StdioMcpServer } = await import('../mcp/stdio-server.js');
    server = new StdioMcpServer(INFO(version), common);
  } else {
    const cluster = options.redis ? await joinCluster(options.redis, options.redisUnavailable, logger) : undefined;
    const { HttpMcpServer } = await import('../mcp/http-server.js');
    const http = new HttpMcpServer(INFO(version), { ...common, host: options.host, port: options.port, cluster });
    if (options.adminToken) {
      const { adminRouter } = await import('../admin/admin-router.js');
      http.app.use('/admin', adminRouter(http, { token: options.adminToken }));
    }
    server = http;
  }
  if (options.folder) registerFolder(server, { folder: options.folder, extensions: options.extensions });
  const handles = upstreams.map((config) => server.addUpstream(config));
  // Settled, not all: one upstream that cannot connect (its state says why) must not stop the others.
  const timeoutMs = Math.min(options.upstreamWaitMs, MAX_TIMER_MS);
  if (timeoutMs > 0) await Promise.allSettled(handles.map((handle) => handle.whenConnected({ timeoutMs })));
  await server.start();
  if (!options.quiet) process.stderr.write(gatewayBanner(server, options, configPath));
  else if (options.adminTokenGenerated && 'address' in server) {
    process.stderr.write(`mcp-toolkit: settings page (keep this URL private): ${settingsUrl(server, options)}\n`);
  }
  return server;
}

function settingsUrl(server: BaseMcpServer, options: GatewayOptions): string | undefined {
  if (!options.adminToken || !('address' in server)) return undefined;
  const { url } = server.address as { url: string };
  return `${new URL('/admin/', url).href}#token=${encodeURIComponent(options.adminToken)}`;
}

function gatewayBanner(server: BaseMcpServer, options: GatewayOptions, configPath: string): string {
  const lines = [`mcp-toolkit gateway: ${server.upstreams.length} upstream(s) from ${configPath}`];
  for (const status of server.upstreams) {
    const detail = status.state === 'connected' ? `${status.tools} tools, ${status.era} era` : status.state;
    lines.push(`  ${status.name} (${status.target}): ${detail}${status.lastError ? ` - ${status.lastError}` : ''}`);
    for (const { name, heldBy } of status.nameConflicts) {
      lines.push(`    ${name} left out: the name is taken by ${heldBy === null ? 'a local tool' : `"${heldBy}"`}`);
    }
  }
  if (options.folder) lines.push(`  folder: ${options.folder}`);
  if ('address' in server) lines.push(`MCP endpoint: ${(server.address as { url: string }).url}`);
  else lines.push('serving over stdio');
  const settings = settingsUrl(server, options);
  if (settings) lines.push(`settings page (keep this URL private): ${settings}`);
  if (options.stateFile) lines.push(`tool state: ${options.stateFile}`);
  return `${lines.join('\n')}\n`;
}
