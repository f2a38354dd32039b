// raw-v2.mjs with phase marks (bench/cold-phases.mjs): serveStdio(), then to the answer; the factory (its
// McpServer and registerTool), which serveStdio calls once the first message is in, is marked apart.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { mark } from './phases.mjs';

mark('sinceImportsMs');
let factoryMs = 0;
serveStdio(() => {
  const started = performance.now();
  const server = new McpServer({ name: 'cold', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.registerTool('echo', { description: 'Echoes', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  factoryMs = performance.now() - started;
  process.stderr.write(`FACTORY ${factoryMs}\n`);
  return server;
});
mark('startMs');
