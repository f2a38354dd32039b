import path from 'node:path';
import { quote as shellQuote } from 'shell-quote';

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
  /** One line naming files the scan left out (e.g. over the size limit), when any were. */
  skipped?: string;
}

// Words made only of these characters mean the same to every POSIX shell unquoted; left bare, URLs stay readable.
const PLAIN_WORD = /^[A-Za-z0-9_/.,:@%+=-]+$/;

/** A command line for a POSIX shell: each word as is when plain, else quoted by shell-quote. */
export function quote(words: readonly string[]): string {
  return words.map((word) => (PLAIN_WORD.test(word) ? word : shellQuote([word]))).join(' ');
}

/** Inspector 0.16 and later (every version whose flags this banner uses) needs Node 22.19. */
const INSPECTOR_NODE = [22, 19] as const;

/**
 * How to start MCP Inspector on the Node running this server: through `npx` as is on Node
 * 22.19+, else with Node 22 from the npm registry (`npx -p node@22`), since on older Node npx
 * would resolve an Inspector whose flags differ or refuse its engine.
 */
export function inspectorCommand(nodeVersion: string = process.versions.node): string[] {
  const [major = 0, minor = 0] = nodeVersion.split('.').map(Number);
  const recent = major > INSPECTOR_NODE[0] || (major === INSPECTOR_NODE[0] && minor >= INSPECTOR_NODE[1]);
  return recent
    ? ['npx', '@modelcontextprotocol/inspector']
    : ['npx', '-y', '-p', 'node@22', '-p', '@modelcontextprotocol/inspector', 'mcp-inspector'];
}

/**
 * The startup banner written to stderr: what is served and how to connect an MCP
 * client (MCP Inspector command line, Claude Code, Claude Desktop `mcpServers` entry).
 * Every command line is shell-quoted, so a folder with spaces or quotes pastes as is.
 */
export function connectHelp(summary: ServeSummary, cliPath: string): string {
  const lines = [
    `mcp-toolkit: serving ${summary.resourceCount} document(s) from ${summary.folder}`,
    `  tools: ${summary.toolNames.join(', ')}`,
  ];
  if (summary.skipped) lines.push(`  ${summary.skipped}`);
  if (summary.stateFile) lines.push(`  tool state file: ${summary.stateFile}`);
  if (summary.settingsUrl) lines.push(`  settings page (keep this URL private): ${summary.settingsUrl}`);
  const stdioArgs = [path.resolve(cliPath), 'serve', '--stdio', summary.folder];
  if (summary.transport === 'http' && summary.url) {
    lines.push(
      `  MCP endpoint: ${summary.url}`,
      '',
      'Connect with MCP Inspector:',
      `  ${quote([...inspectorCommand(), '--transport', 'http', '--server-url', summary.url])}`,
      '',
      'Claude Code:',
      `  ${quote(['claude', 'mcp', 'add', '--transport', 'http', 'documents', summary.url])}`,
      '',
      'Stop with Ctrl+C. For Claude Desktop and other stdio clients, serve the folder over stdio:',
      `  ${quote([process.execPath, ...stdioArgs])}`,
    );
  } else {
    const desktop = { mcpServers: { documents: { command: process.execPath, args: stdioArgs } } };
    lines.push(
      '  transport: stdio (JSON-RPC on stdin/stdout; this text is on stderr)',
      '',
      'Connect with MCP Inspector:',
      `  ${quote([...inspectorCommand(), process.execPath, ...stdioArgs])}`,
      '',
      'Claude Desktop (claude_desktop_config.json):',
      ...JSON.stringify(desktop, null, 2)
        .split('\n')
        .map((line) => `  ${line}`),
    );
  }
  return `${lines.join('\n')}\n`;
}
