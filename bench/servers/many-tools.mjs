/* global process */
// A stdio MCP server with N small tools (`t0` ... `tN-1`, each echoing its `text`), for bench/composition.mjs.
//   node bench/servers/many-tools.mjs <N>
import { StdioMcpServer, defineTool } from '../../dist/index.js';

const count = Number(process.argv[2] ?? 200);
const server = new StdioMcpServer({ name: 'many-tools', version: '1.0.0' });
for (let i = 0; i < count; i += 1) {
  server.registerTool(
    defineTool({
      name: `t${i}`,
      description: `Tool number ${i}: echoes its text.`,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: ({ text }) => text,
    }),
  );
}
await server.start();
