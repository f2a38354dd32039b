import path from 'node:path';
import { quote as shellQuote } from 'shell-quote';
import type { SkippedDocument } from '../documents/document-types.js';

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
  /** Files the folder scan left out for their size. */
  skipped?: readonly SkippedDocument[];
}

const SKIPPED_NAMED = 10;

/** `skipped 1 file over 20 MiB: huge.txt (...)`, or undefined when nothing was left out. */
export function skippedLine(skipped: readonly SkippedDocument[] | undefined): string | undefined {
  if (!skipped?.length) return undefined;
  const limit = Math.max(...skipped.map((file) => file.maxFileSizeBytes)) / (1024 * 1024);
  const names = skipped.slice(0, SKIPPED_NAMED).map((file) => file.name);
  if (skipped.length > SKIPPED_NAMED) names.push(`and ${skipped.length - SKIPPED_NAMED} more`);
  const files = skipped.length === 1 ? '1 file' : `${skipped.length} files`;
  const mib = limit.toLocaleString('en-US', { maximumFractionDigits: 1 });
  return `  skipped ${files} over ${mib} MiB: ${names.join(', ')} (raise the limit with --max-file-size <mib>)`;
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
  const skipped = skippedLine(summary.skipped);
  if (skipped) lines.push(skipped);
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
