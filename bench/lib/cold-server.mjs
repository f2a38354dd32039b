// The W0 servers of bench/servers/cold/. The library server imports this tree's dist/ statically; for another
// build (MCP_TOOLKIT_DIST=<checkout>/dist, bench/compare.mjs) a copy of it importing that build and that
// checkout's zod is written to the temp folder and removed when this process exits.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The line a cold-start bench sends a fresh server: `initialize` (handshake era, id 1), newline-terminated. */
export const INITIALIZE_LINE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'w0', version: '1' } },
})}\n`;

/**
 * Cold-start scripts that follow MCP_TOOLKIT_DIST: they import that build and its checkout's node_modules (zod, the
 * SDK), so both sides of bench/import-cost.mjs load the same SDK copy.
 */
const IMPORTS_DIST = new Set(['ours-root', 'import-sdk', 'import-toolkit']);

/**
 * The path of the cold-start script `name` (`ours-root`, `raw-v2`, `raw-v1`, `import-sdk`, `import-toolkit`) to
 * run with `node`.
 */
export function coldServer(name) {
  const file = fileURLToPath(new URL(`../servers/cold/${name}.mjs`, import.meta.url));
  if (!IMPORTS_DIST.has(name) || !process.env.MCP_TOOLKIT_DIST) return file;
  const dist = path.resolve(process.env.MCP_TOOLKIT_DIST);
  const source = readFileSync(file, 'utf8')
    .replaceAll('../../../dist/', pathToFileURL(`${dist}/`).href)
    .replaceAll('../../../node_modules/', pathToFileURL(path.join(dist, '../node_modules/')).href);
  const copy = path.join(tmpdir(), `w0-${name}-${process.pid}.mjs`);
  writeFileSync(copy, source);
  process.once('exit', () => rmSync(copy, { force: true }));
  return copy;
}
