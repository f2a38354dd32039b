import path from 'node:path';

/** What the CLI serves, summarized for the startup banner. */
export interface ServeSummary {
  folder: string;
  toolNames: readonly string[];
  resourceCount: number;
  transport: 'stdio' | 'http';
  url?: string;
  /** The settings page with its token (`serve --admin`). */
  settingsUrl?: string;
  /** Where the disabled tools are kept, when in a file. */
  stateFile?: string;
}

/**
 * The startup banner written to stderr: what is served and how to connect an MCP
 * client (MCP Inspector command line, Claude Desktop `mcpServers` entry).
 */
export function connectHelp(summary: ServeSummary, cliPath: string): string {
  const lines = [
    `mcp-toolkit: serving ${summary.resourceCount} document(s) from ${summary.folder}`,
    `  tools: ${summary.toolNames.join(', ')}`,
  ];
  if (summary.stateFile) lines.push(`  tool state file: ${summary.stateFile}`);
  if (summary.settingsUrl) lines.push(`  settings page (keep this URL private): ${summary.settingsUrl}`);
  if (summary.transport === 'http' && summary.url) {
    lines.push(
      `  MCP endpoint: ${summary.url}`,
      '',
      'Connect with MCP Inspector:',
      `  npx @modelcontextprotocol/inspector --transport http --server-url ${summary.url}`,
      '',
      'Claude Code:',
      `  claude mcp add --transport http documents ${summary.url}`,
      '',
      'Stop with Ctrl+C. For Claude Desktop (stdio), run: serve --stdio',
    );
  } else {
    const args = [path.resolve(cliPath), 'serve', '--stdio', summary.folder];
    const desktop = { mcpServers: { documents: { command: process.execPath, args } } };
    lines.push(
      '  transport: stdio (JSON-RPC on stdin/stdout; this text is on stderr)',
      '',
      'Connect with MCP Inspector:',
      `  npx @modelcontextprotocol/inspector ${process.execPath} ${args.join(' ')}`,
      '',
      'Claude Desktop (claude_desktop_config.json):',
      ...JSON.stringify(desktop, null, 2)
        .split('\n')
        .map((line) => `  ${line}`),
    );
  }
  return `${lines.join('\n')}\n`;
}
