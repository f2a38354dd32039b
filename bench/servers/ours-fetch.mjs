// mcp-toolkit/fetch under Node: a FetchMcpServer's toFetchHandler served by @hono/node-server.
import { serve } from '@hono/node-server';
import { FetchMcpServer, toFetchHandler } from '../../dist/public/fetch.js';
import { register } from './ours.mjs';

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

export async function startHttp({ tools }) {
  const server = new FetchMcpServer({ name: 'bench', version: '1.0.0' }, { logger: silent });
  register(server, tools);
  await server.start();
  const handler = toFetchHandler(server, { maxListenStreams: 10_000 });
  const http = await new Promise((resolve) => {
    const listening = serve({ fetch: handler, hostname: '127.0.0.1', port: 0 }, () => resolve(listening));
  });
  let disabled = false;
  return {
    port: http.address().port,
    held: () => 0,
    toggle: () => {
      disabled = !disabled;
      if (disabled) server.disableTool('echo');
      else server.enableTool('echo');
      return Date.now();
    },
    stop: async () => {
      await server.stop();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
