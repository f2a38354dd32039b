/**
 * A small server file to try `mcp-toolkit dev` on (docs/cli.md):
 *   npx mcp-toolkit dev examples/dev-server.ts
 * Edit it (add a tool, rename one) and save: the server restarts and the view shows the change.
 * Run it as Claude Desktop would: node --import tsx examples/dev-server.ts
 */
import { z } from 'zod';
import { StdioMcpServer, defineTool } from 'mcp-toolkit';

const server = new StdioMcpServer({ name: 'dev-example', version: '1.0.0' });

server.registerTool(
  defineTool({
    name: 'greet',
    description: 'Greets someone by name.',
    inputSchema: z.object({ name: z.string() }),
    execute: ({ name }) => `Hello, ${name}!`,
  }),
);
server.registerTool(
  defineTool({
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => String(a + b),
  }),
);
server.registerPrompt({
  name: 'introduce',
  description: 'Asks the model to introduce someone.',
  load: () => 'Introduce yourself in one sentence.',
});
server.registerContentDocument({ name: 'readme', content: '# dev-example\n\nA server file for `mcp-toolkit dev`.' });

await server.start();
