import path from 'node:path';
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

/**
 * The startup banner written to stderr: what is served and how to connect an MCP
 * client (MCP Inspector command line, Claude Desktop `mcpServers` entry).
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
