// ours-root.mjs with phase marks (bench/cold-phases.mjs): construct, registerTool, start(), then to the answer.
import { z } from '../../../node_modules/zod/index.js';
import { defineTool, StdioMcpServer } from '../../../dist/index.js';
import { mark } from './phases.mjs';

mark('sinceImportsMs');
const server = new StdioMcpServer({ name: 'cold', version: '1.0.0' });
mark('constructMs');
server.registerTool(
  defineTool({
    name: 'echo',
    description: 'Echoes',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ text }) => text,
  }),
);
mark('registerToolMs');
await server.start();
mark('startMs');
