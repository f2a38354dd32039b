// Reference: fastmcp (on the SDK v1), its httpStream transport (sessions) and stdio.
import net from 'node:net';
import { FastMCP } from 'fastmcp';
import { DESCRIPTION, echo, schema, toolName } from './tools.mjs';

const tool = (i) => ({
  name: toolName(i),
  description: DESCRIPTION,
  parameters: schema(),
  execute: async (args) => echo(args),
});

function build(tools) {
  const server = new FastMCP({ name: 'bench', version: '1.0.0' });
  for (let i = 0; i < tools; i += 1) server.addTool(tool(i));
  return server;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

export async function startHttp({ tools }) {
  const server = build(tools);
  const port = await freePort();
  await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', endpoint: '/mcp' } });
  let disabled = false;
  return {
    port,
    held: () => server.sessions.length,
    toggle: () => {
      disabled = !disabled;
      if (disabled) server.removeTool('echo');
      else server.addTool(tool(0));
    },
    stop: () => server.stop(),
  };
}

export async function startStdio({ tools }) {
  await build(tools).start({ transportType: 'stdio' });
}
