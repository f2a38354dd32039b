// W0: a one-tool raw SDK v2 stdio server, importing only what stdio needs.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

serveStdio(() => {
  const server = new McpServer({ name: 'cold', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool('echo', { description: 'Echoes', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});
