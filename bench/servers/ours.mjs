// mcp-toolkit: HttpMcpServer (both eras on one endpoint) and StdioMcpServer.
import { distUrl } from '../lib/dist.mjs';
import { DESCRIPTION, echo, schema, toolName } from './tools.mjs';

const { defineTool, HttpMcpServer, StdioMcpServer } = await import(distUrl('index.js'));
const { createCluster } = await import(distUrl('public/cluster.js'));

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

/** Registers the bench inventory (`tools` tools, the first one `echo`). */
export function register(server, tools) {
  for (let i = 0; i < tools; i += 1) {
    server.registerTool(
      defineTool({ name: toolName(i), description: DESCRIPTION, inputSchema: schema(), execute: echo }),
    );
  }
}

export async function startHttp({ tools, idleTimeoutMs, folder, beforeStart, redis, prefix, authorization }) {
  // W7: with `redis`, the server is one replica of a cluster sharing that Redis.
  const cluster = redis ? await createCluster({ redis, prefix, logger: silent }) : undefined;
  const server = new HttpMcpServer(
    { name: 'bench', version: '1.0.0' },
    {
      port: 0,
      logger: silent,
      maxSessions: 100_000,
      maxListenStreams: 10_000,
      cluster,
      ...(idleTimeoutMs !== undefined && { sessionIdleTimeoutMs: idleTimeoutMs }),
      ...(authorization && { authorization }), // bench/auth-overhead.mjs
    },
  );
  register(server, tools);
  if (folder) server.registerFolder(folder);
  beforeStart?.(server);
  await server.start();
  let disabled = false;
  let toggledAt = null;
  server.events.on('toolToggled', () => (toggledAt = Date.now()));
  return {
    port: server.address.port,
    held: () => server.sessionCount,
    toggledAt: () => toggledAt,
    toggle: () => {
      const at = Date.now(); // W7 compares it with each replica's toggledAt (one clock)
      disabled = !disabled;
      if (disabled) server.disableTool('echo');
      else server.enableTool('echo');
      return at;
    },
    stop: () => server.stop(),
  };
}

export async function startStdio({ tools, beforeStart }) {
  const server = new StdioMcpServer({ name: 'bench', version: '1.0.0' }, { logger: silent });
  register(server, tools);
  beforeStart?.(server);
  await server.start();
}
