// Shared setup of the admin tests: an HttpMcpServer with a tool package, the admin router
// mounted at /admin, and helpers to call the API.
import { z } from 'zod';
import { adminRouter } from '../../src/admin/admin-router.js';
import type { AdminRouterOptions } from '../../src/admin/admin-options.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import type { HttpMcpServerOptions } from '../../src/mcp/transports/http/options.js';
import { defineTool } from '../../src/registry/tool.js';
import { ToolPackage } from '../../src/registry/tool-package.js';
import { silentLogger } from '../support/in-memory.js';

export const TOKEN = 'test-admin-token-0123456789abcdef';

/** A started server with `echo`, `fail` (package `basics`), `whoami` (no package) and the admin router. */
export async function startAdminServer(
  options: HttpMcpServerOptions = {},
  admin: Partial<AdminRouterOptions> = {},
): Promise<{ server: HttpMcpServer; admin: string; mcp: string }> {
  const server = new HttpMcpServer(
    { name: 'admin-test', version: '1.0.0' },
    { port: 0, logger: silentLogger(), ...options },
  );
  server.registerTool(
    new ToolPackage(
      [
        defineTool({
          name: 'echo',
          description: 'Echoes text back.',
          inputSchema: z.object({ text: z.string() }),
          execute: ({ text }) => text,
        }),
        defineTool({
          name: 'fail',
          description: 'Always fails.',
          execute: () => {
            throw new Error('boom');
          },
        }),
      ],
      { name: 'basics' },
    ),
  );
  server.registerTool(defineTool({ name: 'whoami', description: 'Says who.', execute: () => 'me' }));
  server.app.use('/admin', adminRouter(server, { token: TOKEN, ...admin }));
  await server.start();
  const mcp = server.address.url;
  return { server, mcp, admin: new URL('/admin/', mcp).href };
}

/** Calls the admin API (`path` relative to `/admin/api/`) with the token unless `headers` say otherwise. */
export async function call(
  admin: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, asserted field by field
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}`, ...init.headers };
  if (init.body !== undefined && !('Content-Type' in headers)) headers['Content-Type'] = 'application/json';
  const response = await fetch(new URL(`api/${path}`, admin), {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}
