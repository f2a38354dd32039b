/* global process */
// Child process of bench/http-call-cost.mjs: one HTTP MCP server with a trivial `echo`
// tool on 127.0.0.1, of the kind given in argv[2]:
//   ours    HttpMcpServer (dual-era router, legacy sessions)
//   raw-v2  raw SDK v2: McpServer + NodeStreamableHTTPServerTransport per session (express)
//   raw-v1  raw SDK v1: McpServer + StreamableHTTPServerTransport per session (express)
// Sends { port } to the parent over IPC, then answers 'cpu' with process.cpuUsage().
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import express from 'express';
import { z } from 'zod';

const kind = process.argv[2];

async function rawServer(makeSession) {
  const transports = new Map();
  const app = express();
  app.use(express.json({ limit: '4mb' }));
  app.all('/mcp', async (req, res) => {
    const id = req.headers['mcp-session-id'];
    const existing = id && transports.get(id);
    if (existing) return existing.handleRequest(req, res, req.body);
    if (id) return res.status(404).end();
    const transport = await makeSession((sid, t) => transports.set(sid, t));
    return transport.handleRequest(req, res, req.body);
  });
  const listener = http.createServer(app);
  await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return listener.address().port;
}

async function start() {
  if (kind === 'ours') {
    const { defineTool, HttpMcpServer } = await import('../dist/index.js');
    const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
    const server = new HttpMcpServer({ name: 'bench', version: '1' }, { port: 0, logger: silent });
    server.registerTool(
      defineTool({ name: 'echo', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => text }),
    );
    await server.start();
    return server.address.port;
  }
  if (kind === 'raw-v2') {
    const { McpServer } = await import('@modelcontextprotocol/server');
    const { NodeStreamableHTTPServerTransport } = await import('@modelcontextprotocol/node');
    return rawServer(async (register) => {
      const transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => register(sid, transport),
      });
      const server = new McpServer({ name: 'bench', version: '1' });
      server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
        content: [{ type: 'text', text }],
      }));
      await server.connect(transport);
      return transport;
    });
  }
  if (kind === 'raw-v1') {
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    return rawServer(async (register) => {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => register(sid, transport),
      });
      const server = new McpServer({ name: 'bench', version: '1' });
      server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({
        content: [{ type: 'text', text }],
      }));
      await server.connect(transport);
      return transport;
    });
  }
  throw new Error(`unknown kind ${kind}`);
}

const port = await start();
process.on('message', (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  if (message === 'exit') process.exit(0);
});
process.send({ port });
