import { ToolkitError } from '../errors.js';

/** What the CLI prints for an error: the toolkit's code, or for a port in use the flag that picks another. */
function describe(error: unknown): string {
  if (error instanceof ToolkitError) return `${error.message} (${error.code})`;
  const { code, port } = (error ?? {}) as { code?: unknown; port?: unknown };
  if (code === 'EADDRINUSE') {
    return `port ${String(port ?? '')} is already in use: pick another with --port <n> (--port 0 picks a free one)`;
  }
  return String(error);
}

/** Ends the CLI after a failed command: `mcp-toolkit: <what went wrong>` on stderr (stdout may be JSON-RPC), exit code 1. */
export function exitOnFailure(error: unknown): never {
  process.stderr.write(`mcp-toolkit: ${describe(error)}\n`);
  process.exit(1);
}
