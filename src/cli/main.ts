#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { ToolkitError } from '../errors.js';
import { defaultFolder, serveStdioFolder } from './serve.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command()
  .name('mcp-toolkit')
  .description('Serve a folder of documents to any MCP client.')
  .version(pkg.version)
  // Help and errors go to stderr: in stdio mode stdout belongs to JSON-RPC.
  .configureOutput({ writeOut: (text) => process.stderr.write(text), writeErr: (text) => process.stderr.write(text) });

program
  .command('serve')
  .description('Expose every document in FOLDER as an MCP resource, plus list_documents / read_document tools.')
  .argument('[folder]', 'folder to serve (default: the package docs/ folder)')
  .option('--stdio', 'serve over stdio (for Claude Desktop, IDEs, MCP Inspector)', true)
  .option('--ext <list>', 'comma-separated extensions to include, e.g. md,txt,pdf')
  .option('-q, --quiet', 'do not print the startup banner')
  .action(async (folder: string | undefined, opts: { ext?: string; quiet?: boolean }) => {
    const target = path.resolve(folder ?? defaultFolder());
    const extensions = opts.ext
      ?.split(',')
      .map((ext) => ext.trim())
      .filter(Boolean);
    const server = await serveStdioFolder({ folder: target, extensions, quiet: opts.quiet }, pkg.version);
    const shutdown = () => void server.stop().then(() => process.exit(0));
    process.once('SIGINT', shutdown).once('SIGTERM', shutdown);
    await server.waitUntilClosed();
  });

program.parseAsync(process.argv).catch((error: unknown) => {
  const message = error instanceof ToolkitError ? `${error.message} (${error.code})` : String(error);
  process.stderr.write(`mcp-toolkit: ${message}\n`);
  process.exit(1);
});
