// W0: a one-tool library StdioMcpServer imported from the package root.
// The toolkit's own zod, as in an app with one copy: a bare 'zod' here resolves to the copy in bench/node_modules
// (installed with fastmcp) and loads zod twice (about 100 more modules at start). The raw SDK servers resolve their
// SDK from bench/node_modules too, so their bare 'zod' is already the one their SDK uses.
// MCP_TOOLKIT_DIST=<checkout>/dist (bench/compare.mjs) loads another build, with that checkout's zod.
const dist = process.env.MCP_TOOLKIT_DIST || new URL('../../../dist', import.meta.url).pathname;
const { z } = await import(`${dist}/../node_modules/zod/index.js`);
const { defineTool, StdioMcpServer } = await import(`${dist}/index.js`);

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
