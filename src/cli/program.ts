import type { Command } from 'commander';
import { lazyRequire } from '../lazy-module.js';
import { addClientCommands } from './client-commands.js';
import { exitOnFailure } from './cli-failure.js';
import { CLI_VERSION } from './cli-version.js';
import { addGatewayCommand } from './gateway-command.js';
import { ADMIN_TOKEN_ENV } from './admin-setup.js';
import { addDocumentLimitFlags } from './document-limits.js';
import { runServe, SERVE_DEFAULTS, type ServeFlags } from './serve-command.js';
import { addTlsFlags } from './tls-flags.js';

// commander is CommonJS: required, it skips the ESM loader's scan of its exports and its wrapper (~2.4 ms of every start).
const commander = lazyRequire<typeof import('commander')>('commander');

/** What `serve` runs with its parsed arguments: `runServe`, or a test's stand-in. */
export type ServeAction = typeof runServe;

/**
 * The whole CLI as a commander program: `serve`, the client commands (`dev`, `list`, `call`) and `gateway`.
 * @param serveAction - what `serve` runs (default `runServe`); `test/cli/fast-serve.test.ts` captures its arguments
 */
export function buildProgram(serveAction: ServeAction = runServe): Command {
  const program = new (commander().Command)()
    .name('mcp-toolkit')
    .description('Serve a folder of documents to any MCP client; run, inspect and call MCP servers.')
    .version(CLI_VERSION)
    // Help and errors go to stderr: in stdio mode stdout belongs to JSON-RPC.
    .configureOutput({
      writeOut: (text) => process.stderr.write(text),
      writeErr: (text) => process.stderr.write(text),
    });

  const serve = program
    .command('serve')
    .description(
      'Expose every document in FOLDER as an MCP resource, plus the list_documents, read_document and search_documents tools.',
    )
    .argument('[folder]', 'folder to serve (default: the package docs/ folder)')
    .option('--http', 'serve over Streamable HTTP, both protocol eras (the default)')
    .option('--stdio', 'serve over stdio (for Claude Desktop, IDEs, MCP Inspector)')
    .option('--port <n>', 'HTTP port (0 picks a free one)', SERVE_DEFAULTS.port)
    .option(
      '--host <host>',
      'HTTP interface to bind; anything but loopback exposes the documents to the network',
      SERVE_DEFAULTS.host,
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
  addTlsFlags(addDocumentLimitFlags(serve)).action((folder: string | undefined, opts: ServeFlags, command: Command) =>
    serveAction(folder, opts, (flag) => command.getOptionValueSource(flag) === 'cli', CLI_VERSION),
  );

  addClientCommands(program, CLI_VERSION);
  addGatewayCommand(program, CLI_VERSION);
  return program;
}

/**
 * Parses `argv` (`process.argv`) and runs the command it names; a failure ends the process (`exitOnFailure`).
 * Not awaited by the entry: a long-running command's promise is never a pending top-level await.
 */
export function runProgram(argv: readonly string[]): void {
  buildProgram().parseAsync(argv).catch(exitOnFailure);
}
