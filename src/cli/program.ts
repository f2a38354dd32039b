import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ToolkitError } from '../errors.js';
import { lazyRequire } from '../lazy-module.js';
import { addClientCommands } from './client-commands.js';
import { parsePort, parseRedisUnavailable, resolveFolder } from './flag-parsers.js';
import { addGatewayCommand } from './gateway-command.js';
import { ADMIN_TOKEN_ENV, adminToken, defaultStateFile } from './admin-setup.js';
import { addDocumentLimitFlags, documentLimits } from './document-limits.js';
import { defaultFolder, serveHttpFolder, serveStdioFolder } from './serve.js';
import { sessionOptions, type SessionFlags } from './session-flags.js';
import { addTlsFlags, httpsOptions, pingIntervalMs, type TlsFlags } from './tls-flags.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

// commander is CommonJS: required, it skips the ESM loader's scan of its exports and its wrapper (~2.4 ms of every start).
const commander = lazyRequire<typeof import('commander')>('commander')();

const program = new commander.Command()
  .name('mcp-toolkit')
  .description('Serve a folder of documents to any MCP client; run, inspect and call MCP servers.')
  .version(pkg.version)
  // Help and errors go to stderr: in stdio mode stdout belongs to JSON-RPC.
  .configureOutput({ writeOut: (text) => process.stderr.write(text), writeErr: (text) => process.stderr.write(text) });

/** Options of `serve` as commander parses them. */
interface ServeFlags extends SessionFlags, TlsFlags {
  authIssuer?: string;
  authAudience?: string;
  authScope?: string[];
  stdio?: boolean;
  http?: boolean;
  port?: string;
  host?: string;
  ext?: string;
  quiet?: boolean;
  watch?: boolean;
  redis?: string;
  redisUnavailable?: string;
  admin?: boolean;
  adminToken?: string;
  stateFile?: string;
}

const serve = program
  .command('serve')
  .description(
    'Expose every document in FOLDER as an MCP resource, plus the list_documents, read_document and search_documents tools.',
  )
  .argument('[folder]', 'folder to serve (default: the package docs/ folder)')
  .option('--http', 'serve over Streamable HTTP, both protocol eras (the default)')
  .option('--stdio', 'serve over stdio (for Claude Desktop, IDEs, MCP Inspector)')
  .option('--port <n>', 'HTTP port (0 picks a free one)', '3000')
  .option(
    '--host <host>',
    'HTTP interface to bind; anything but loopback exposes the documents to the network',
    '127.0.0.1',
  )
  .option('--ext <list>', 'comma-separated extensions to include, e.g. md,txt,pdf')
  .option('--session-idle-timeout <seconds>', 'close an HTTP session idle this long; 0 never (default 1800)')
  .option('--max-sessions <n>', 'most live HTTP sessions (default 1000)')
  .option('--session-limit-policy <policy>', 'at the cap: evict-lru (default) or reject (answer 503)')
  .option('--no-watch', 'do not watch the folder (by default added, removed and edited files reach clients live)')
  .option('--admin', 'HTTP only: serve the settings page and admin API at /admin (loopback clients, bearer token)')
  .option(
    '--admin-token <token>',
    `admin bearer token (default: $${ADMIN_TOKEN_ENV}, else a random one printed in the banner)`,
  )
  .option(
    '--state-file <path>',
    'JSON file keeping disabled tools across restarts (default with --admin: <config dir>/mcp-toolkit/tool-state/<folder>-<hash>.json)',
  )
  .option('--auth-issuer <url>', 'HTTP only: require OAuth access tokens from this issuer (docs/authorization.md)')
  .option('--auth-audience <url>', "with --auth-issuer: this server's public URL, the tokens' audience")
  .option('--auth-scope <scope...>', 'with --auth-issuer: scopes every request needs')
  .option('-q, --quiet', 'do not print the startup banner')
  .option('--redis <url>', 'join the cluster of replicas sharing this Redis (HTTP only; docs/scaling.md)')
  .option(
    '--redis-unavailable <policy>',
    'when Redis does not answer at start: fail (default, exit 1) or local (serve with local state, join when Redis answers)',
  );
addTlsFlags(addDocumentLimitFlags(serve)).action(
  async (folder: string | undefined, opts: ServeFlags, command: Command) => {
    if (opts.stdio && opts.http) throw new Error('choose one transport: --stdio or --http');
    if (opts.stdio && opts.redis) throw new Error('--redis needs --http: replicas serve one HTTP endpoint');
    const redisUnavailable = parseRedisUnavailable(opts);
    for (const flag of ['port', 'host'] as const) {
      if (opts.stdio && command.getOptionValueSource(flag) === 'cli')
        throw new Error(`--${flag} needs HTTP: drop --stdio`);
    }
    const target = resolveFolder(folder ?? defaultFolder());
    const extensions = opts.ext
      ?.split(',')
      .map((ext) => ext.trim())
      .filter(Boolean);
    if (opts.stdio && (opts.admin || opts.adminToken)) throw new Error('--admin needs HTTP: drop --stdio');
    if (opts.stdio && (opts.authIssuer || opts.authAudience || opts.authScope)) {
      throw new Error('--auth-issuer (and --auth-audience, --auth-scope) need HTTP: drop --stdio');
    }
    const https = httpsOptions(opts);
    if (opts.stdio && https) throw new Error('--https-cert and --https-key need HTTP: drop --stdio');
    // With --redis the cluster keeps the disabled set; --state-file would take it over (one replica's file).
    const stateFile = opts.stateFile
      ? path.resolve(opts.stateFile)
      : opts.admin && !opts.redis
        ? defaultStateFile(target)
        : undefined;
    const limits = documentLimits(opts as Record<string, unknown>);
    const common = {
      folder: target,
      extensions,
      quiet: opts.quiet,
      watch: opts.watch !== false,
      stateFile,
      limits,
      pingIntervalMs: pingIntervalMs(opts),
    };
    const token = opts.admin || opts.adminToken ? adminToken(opts.adminToken) : undefined;
    const admin = token ? { adminToken: token.token, adminTokenGenerated: token.generated } : {};
    const server = opts.stdio
      ? await serveStdioFolder(common, pkg.version)
      : await serveHttpFolder(
          {
            ...common,
            ...admin,
            host: opts.host,
            port: parsePort(opts.port ?? '3000'),
            redis: opts.redis,
            https,
            ...(opts.authIssuer && {
              authorization: {
                issuer: opts.authIssuer,
                ...(opts.authAudience && { audience: opts.authAudience }),
                ...(opts.authScope && { requiredScopes: opts.authScope }),
              },
            }),
            redisUnavailable,
            ...sessionOptions(opts),
          },
          pkg.version,
        );
    const shutdown = () => void server.stop().then(() => process.exit(0));
    process.once('SIGINT', shutdown).once('SIGTERM', shutdown);
    if ('waitUntilClosed' in server) await server.waitUntilClosed();
  },
);

/** What the CLI prints for an error: the toolkit's code, or for a port in use the flag that picks another. */
function describe(error: unknown): string {
  if (error instanceof ToolkitError) return `${error.message} (${error.code})`;
  const { code, port } = (error ?? {}) as { code?: unknown; port?: unknown };
  if (code === 'EADDRINUSE') {
    return `port ${String(port ?? '')} is already in use: pick another with --port <n> (--port 0 picks a free one)`;
  }
  return String(error);
}

addClientCommands(program, pkg.version);
addGatewayCommand(program, pkg.version);

program.parseAsync(process.argv).catch((error: unknown) => {
  const message = describe(error);
  process.stderr.write(`mcp-toolkit: ${message}\n`);
  process.exit(1);
});
