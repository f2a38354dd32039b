import path from 'node:path';
import type { Command } from 'commander';
import { ADMIN_TOKEN_ENV, adminToken, defaultStateFile } from './admin-setup.js';
import { flagNumber, parseExtensions, parsePort, parseRedisUnavailable, resolveFolder } from './flag-parsers.js';

/** Options of `gateway` as commander parses them. */
interface GatewayFlags {
  config: string;
  stdio?: boolean;
  http?: boolean;
  port?: string;
  host?: string;
  folder?: string;
  ext?: string;
  admin?: boolean;
  adminToken?: string;
  stateFile?: string;
  redis?: string;
  redisUnavailable?: string;
  upstreamWait?: string;
  quiet?: boolean;
}

/** Adds `mcp-toolkit gateway --config servers.json`: the upstreams of an `mcpServers` file as one MCP server. */
export function addGatewayCommand(program: Command, version: string): void {
  program
    .command('gateway')
    .description(
      'Serve the tools of the MCP servers in an mcpServers file (the Claude Desktop format) as one server; each tool is named <server>_<tool>.',
    )
    .requiredOption(
      '--config <file>',
      'JSON file: { "mcpServers": { "<name>": { command, args, env } | { url, headers } } }',
    )
    .option('--http', 'serve over Streamable HTTP, both protocol eras (the default)')
    .option('--stdio', 'serve over stdio (for Claude Desktop, IDEs, MCP Inspector)')
    .option('--port <n>', 'HTTP port (0 picks a free one)', '3000')
    .option('--host <host>', 'HTTP interface to bind', '127.0.0.1')
    .option('--folder <path>', 'also serve this folder of documents (resources and the document tools)')
    .option('--ext <list>', 'with --folder: comma-separated extensions to include')
    .option('--admin', 'HTTP only: serve the settings page and admin API at /admin (bearer token)')
    .option('--admin-token <token>', `admin bearer token (default: $${ADMIN_TOKEN_ENV}, else a random one)`)
    .option(
      '--state-file <path>',
      'JSON file keeping disabled tools across restarts (default with --admin: <config dir>/mcp-toolkit/tool-state/<config>-<hash>.json)',
    )
    .option('--redis <url>', 'join the cluster of replicas sharing this Redis (HTTP only; docs/scaling.md)')
    .option('--redis-unavailable <policy>', 'when Redis does not answer at start: fail (default) or local')
    .option('--upstream-wait <seconds>', 'longest wait for the upstreams to connect before serving', '10')
    .option('-q, --quiet', 'do not print the startup banner')
    .action(async (opts: GatewayFlags, command: Command) => {
      if (opts.stdio && opts.http) throw new Error('choose one transport: --stdio or --http');
      if (opts.stdio) {
        for (const flag of ['port', 'host'] as const) {
          if (command.getOptionValueSource(flag) === 'cli') throw new Error(`--${flag} needs HTTP: drop --stdio`);
        }
        if (opts.admin || opts.adminToken) {
          throw new Error(`${opts.admin ? '--admin' : '--admin-token'} needs HTTP: drop --stdio`);
        }
        if (opts.redis) throw new Error('--redis needs --http: replicas serve one HTTP endpoint');
      }
      const wait = flagNumber(opts.upstreamWait ?? '10');
      if (!(wait >= 0)) throw new Error(`--upstream-wait must be a number of seconds, got "${opts.upstreamWait}"`);
      const config = path.resolve(opts.config);
      const token = opts.admin || opts.adminToken ? adminToken(opts.adminToken) : undefined;
      const stateFile = opts.stateFile
        ? path.resolve(opts.stateFile)
        : token && !opts.redis
          ? defaultStateFile(config)
          : undefined;
      // Loaded when chosen: `serve` never compiles the gateway's code.
      const { serveGateway } = await import('./gateway.js');
      const server = await serveGateway(
        {
          config,
          transport: opts.stdio ? 'stdio' : 'http',
          host: opts.host,
          port: parsePort(opts.port ?? '3000'),
          ...(opts.folder && { folder: resolveFolder(opts.folder) }),
          extensions: parseExtensions(opts.ext),
          stateFile,
          ...(token && { adminToken: token.token, adminTokenGenerated: token.generated }),
          redis: opts.redis,
          redisUnavailable: parseRedisUnavailable(opts),
          upstreamWaitMs: wait * 1000,
          quiet: opts.quiet,
        },
        version,
      );
      const shutdown = () => void server.stop().then(() => process.exit(0));
      process.once('SIGINT', shutdown).once('SIGTERM', shutdown);
      if ('waitUntilClosed' in server) await (server as { waitUntilClosed(): Promise<void> }).waitUntilClosed();
    });
}
