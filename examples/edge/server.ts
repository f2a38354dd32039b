// One MCP server for every edge runtime: Bun (bun.ts), Deno (deno.ts) and Cloudflare's workerd (worker.ts)
// serve the same app. Everything comes from `mcp-toolkit/fetch`, which loads no Node built-in.
// #region edge-server
import { z } from 'zod';
import { FetchMcpServer, defineTool, toFetchHandler, type FetchHandler } from 'mcp-toolkit/fetch';

/** Builds the server: two tools, both enabled. */
export function createEdgeServer(): FetchMcpServer {
  const server = new FetchMcpServer({ name: 'edge-example', version: '1.0.0' });
  server.registerTool(
    defineTool({
      name: 'echo',
      description: 'Echoes the text back.',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => `echo: ${text}`,
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
  return server;
}

/** The loopback host names this example answers to (DNS-rebinding protection). */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

/**
 * The app's whole HTTP surface: `POST /admin/tools/<name>?enabled=true|false` toggles a tool (with
 * `Authorization: Bearer <adminToken>`; off without a token), everything else is the MCP endpoint at `/mcp`.
 * A toggle reaches the next request of every client (each 2026-07-28 listen stream is told once).
 */
export function edgeApp(
  server: FetchMcpServer,
  adminToken: string | undefined,
  mcp: FetchHandler = toFetchHandler(server, { allowedHosts: LOOPBACK_HOSTS }),
): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const admin = /^\/admin\/tools\/([^/]+)$/.exec(url.pathname);
    if (!admin) return mcp(request);
    if (!adminToken || request.headers.get('authorization') !== `Bearer ${adminToken}`) {
      return new Response('forbidden\n', { status: 403 });
    }
    if (request.method !== 'POST') return new Response('use POST\n', { status: 405 });
    const name = decodeURIComponent(admin[1]!);
    if (url.searchParams.get('enabled') === 'false') server.disableTool(name);
    else server.enableTool(name);
    // Names and states only: a ToolState also holds the tool itself (handler, schemas), which is not for the wire.
    const tools = server.getToolStates().map(({ name, enabled, packageName }) => ({ name, enabled, packageName }));
    return Response.json({ tools });
  };
}
// #endregion edge-server
