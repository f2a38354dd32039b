// W0: a one-tool library StdioMcpServer imported from the package root.
import { z } from 'zod';
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
