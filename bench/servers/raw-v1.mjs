// Reference: the raw SDK v1 (`@modelcontextprotocol/sdk` 1.32), wired as its README shows:
// express, one McpServer + StreamableHTTPServerTransport per session; stdio with
// StdioServerTransport. v1 speaks only the 2025-era protocol.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { serveSessions } from './sessionful.mjs';
import { DESCRIPTION, echo, shape, toolName } from './tools.mjs';

function build(tools, disabled) {
  const server = new McpServer({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  let first;
  for (let i = 0; i < tools; i += 1) {
    const handle = server.registerTool(toolName(i), { description: DESCRIPTION, inputSchema: shape() }, (args) => ({
      content: [{ type: 'text', text: echo(args) }],
    }));
    if (i === 0) first = handle;
  }
  if (disabled) first.disable();
  return { server, first };
}

export async function startHttp({ tools }) {
  return serveSessions({
    build: (off) => build(tools, off),
    Transport: StreamableHTTPServerTransport,
    isInitializeRequest,
  });
}

export async function startStdio({ tools }) {
  await build(tools, false).server.connect(new StdioServerTransport());
}
