// Bun: `PORT=8787 ADMIN_TOKEN=secret bun examples/edge/bun.ts`
import { createEdgeServer, edgeApp } from './server.js';

declare const Bun: {
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> }): { port: number };
};

const app = edgeApp(createEdgeServer(), process.env.ADMIN_TOKEN);
const served = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT ?? 8787), fetch: app });
console.log(`MCP on http://127.0.0.1:${served.port}/mcp`);
