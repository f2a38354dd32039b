// Reference: the raw SDK v2 (`@modelcontextprotocol/server`), wired as its README shows.
// HTTP: one express endpoint; 2025-era requests get sessions (McpServer +
// NodeStreamableHTTPServerTransport per session), 2026-07-28 requests go to the
// per-request `createMcpHandler` (routed on the protocol-version header, the cheapest test).
// stdio: `serveStdio(factory)`.
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { serveSessions } from './sessionful.mjs';
import { DESCRIPTION, echo, schema, toolName } from './tools.mjs';

/** A McpServer with `tools` tools; returns it and the handle of `echo`. */
function build(tools, disabled) {
  const server = new McpServer({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  let first;
  for (let i = 0; i < tools; i += 1) {
    const handle = server.registerTool(toolName(i), { description: DESCRIPTION, inputSchema: schema() }, (args) => ({
      content: [{ type: 'text', text: echo(args) }],
    }));
    if (i === 0) first = handle;
  }
  if (disabled) first.disable();
  return { server, first };
}

export async function startHttp({ tools }) {
  let disabled = false;
  const modern = createMcpHandler(() => build(tools, disabled).server, { legacy: 'reject', maxSubscriptions: 10_000 });
  return serveSessions({
    build: (off) => build(tools, off),
    Transport: NodeStreamableHTTPServerTransport,
    isInitializeRequest,
    modern: (req) => req.headers['mcp-protocol-version'] === '2026-07-28',
    modernHandler: toNodeHandler(modern),
    onToggle: (off) => {
      disabled = off;
      modern.notify.toolsChanged();
    },
  });
}

export async function startStdio({ tools }) {
  serveStdio(() => build(tools, false).server);
}
