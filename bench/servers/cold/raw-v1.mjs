// W0: a one-tool raw SDK v1 stdio server, importing only what stdio needs.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'cold', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
server.registerTool('echo', { description: 'Echoes', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
