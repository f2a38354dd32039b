// W0: a one-tool library StdioMcpServer imported from the package root, written as an app writes it (static
// imports: an app's graph is linked and compiled before its first line runs, as the raw SDK servers' are).
// The toolkit's own zod, as in an app with one copy: a bare 'zod' here resolves to the copy in bench/node_modules
// (installed with fastmcp) and loads zod twice (about 100 more modules at start). The raw SDK servers resolve their
// SDK from bench/node_modules too, so their bare 'zod' is already the one their SDK uses.
// With MCP_TOOLKIT_DIST=<checkout>/dist, bench/lib/cold-server.mjs runs a copy importing that build and its zod.
import { z } from '../../../node_modules/zod/index.js';
import { defineTool, StdioMcpServer } from '../../../dist/index.js';

const server = new StdioMcpServer({ name: 'cold', version: '1.0.0' });
server.registerTool(
  defineTool({
    name: 'echo',
    description: 'Echoes',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => text,
  }),
);
await server.start();
