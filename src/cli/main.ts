#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { ToolkitError } from '../errors.js';
import { addDocumentLimitFlags, documentLimits } from './document-limits.js';
import { defaultFolder, serveHttpFolder, serveStdioFolder } from './serve.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command()
  .name('mcp-toolkit')
  .description('Serve a folder of documents to any MCP client.')
  .version(pkg.version)
  // Help and errors go to stderr: in stdio mode stdout belongs to JSON-RPC.
  .configureOutput({ writeOut: (text) => process.stderr.write(text), writeErr: (text) => process.stderr.write(text) });

/** Options of `serve` as commander parses them. */
interface ServeFlags {
  stdio?: boolean;
  http?: boolean;
  port?: string;
  host?: string;
  ext?: string;
  quiet?: boolean;
  watch?: boolean;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, got "${value}"`);
  return port;
}

const serve = program
  .command('serve')
  .description('Expose every document in FOLDER as an MCP resource, plus list_documents / read_document tools.')
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
  .option('--no-watch', 'do not watch the folder (by default added, removed and edited files reach clients live)')
  .option('-q, --quiet', 'do not print the startup banner');
addDocumentLimitFlags(serve).action(async (folder: string | undefined, opts: ServeFlags) => {
  if (opts.stdio && opts.http) throw new Error('choose one transport: --stdio or --http');
  const target = path.resolve(folder ?? defaultFolder());
  const extensions = opts.ext
    ?.split(',')
    .map((ext) => ext.trim())
    .filter(Boolean);
  const limits = documentLimits(opts as Record<string, unknown>);
  const common = { folder: target, extensions, quiet: opts.quiet, watch: opts.watch !== false, limits };
  const server = opts.stdio
    ? await serveStdioFolder(common, pkg.version)
    : await serveHttpFolder({ ...common, host: opts.host, port: parsePort(opts.port ?? '3000') }, pkg.version);
  const shutdown = () => void server.stop().then(() => process.exit(0));
  process.once('SIGINT', shutdown).once('SIGTERM', shutdown);
  if ('waitUntilClosed' in server) await server.waitUntilClosed();
});

program.parseAsync(process.argv).catch((error: unknown) => {
  const message = error instanceof ToolkitError ? `${error.message} (${error.code})` : String(error);
  process.stderr.write(`mcp-toolkit: ${message}\n`);
  process.exit(1);
});
