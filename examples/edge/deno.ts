// Deno: `PORT=8787 ADMIN_TOKEN=secret deno run --sloppy-imports --allow-net --allow-env --allow-read examples/edge/deno.ts`
import { createEdgeServer, edgeApp } from './server.js';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const app = edgeApp(createEdgeServer(), Deno.env.get('ADMIN_TOKEN'));
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 8787),
    onListen: ({ port }) => console.log(`MCP on http://127.0.0.1:${port}/mcp`),
  },
  app,
);
