import path from 'node:path';
import { inspectorCommand } from '../connect-help.js';

/**
 * How to connect other clients to the server file `mcp-toolkit dev` runs, printed once after the
 * first connection: the MCP Inspector command line and a Claude Desktop `mcpServers` entry that run
 * the same file (each client starts its own copy), or, for an HTTP server (`--url`), the Inspector's
 * and Claude Code's HTTP forms.
 */
export function devConnectHelp(serverName: string, run: { command: string; args: string[] } | { url: URL }): string[] {
  const key = serverName.replace(/[^A-Za-z0-9_-]+/g, '-') || 'server';
  const inspector = inspectorCommand().join(' '); // Node 22 from the registry where this Node is too old for it
  if ('url' in run) {
    return [
      'Connect other clients:',
      `  MCP Inspector:  ${inspector} --transport http --server-url ${run.url.href}`,
      `  Claude Code:    claude mcp add --transport http ${key} ${run.url.href}`,
    ];
  }
  const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  const desktop = { mcpServers: { [key]: { command: run.command, args: run.args } } };
  return [
    `Connect other clients (each runs its own copy of ${path.basename(run.args.at(-1) ?? 'the file')}):`,
    `  MCP Inspector:  ${inspector} ${[run.command, ...run.args].map(quote).join(' ')}`,
    '  Claude Desktop (claude_desktop_config.json):',
    ...JSON.stringify(desktop, null, 2)
      .split('\n')
      .map((line) => `    ${line}`),
  ];
}
