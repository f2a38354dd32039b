/**
 * Middleware tour: every feature of docs/middleware.md in one runnable server.
 * Run: npm run build:examples && node .tmp/examples/examples/middleware.js
 * (or compile with tsc); talk to it over stdio with any MCP client.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { StdioMcpServer, UserError, defineTool } from '../src/index.js';
import { auditLog, openTelemetry, rateLimit, responseCache } from '../src/public/middleware.js';
import type { Middleware } from '../src/public/types.js';

const server = new StdioMcpServer({ name: 'middleware-example', version: '1.0.0' });
server.registerTool(
  defineTool({
    name: 'search',
    description: 'Searches the catalogue.',
    inputSchema: z.object({ query: z.string(), limit: z.number().optional() }),
    annotations: { readOnlyHint: true }, // responseCache() reuses its answers
    execute: ({ query, limit }, context) =>
      `${limit ?? 10} hits for "${query}" (caller: ${context.principal?.clientId})`,
  }),
);

// #region own
// Times every request, blocks one argument and rewrites another.
const timing: Middleware = async (context, next) => {
  const started = performance.now();
  const result = await next();
  if (context.method === 'tools/call') {
    const ms = performance.now() - started;
    return { ...result, _meta: { ...(result._meta as object), 'example/ms': ms } };
  }
  return result;
};
server.use(timing);

server.use(
  (context, next) => {
    if (context.method !== 'tools/call') return next();
    const args = context.params.arguments ?? {};
    if (args.query === '') throw new UserError('Send a non-empty query.'); // an isError result
    return next({ ...context.params, arguments: { ...args, limit: Math.min(Number(args.limit ?? 10), 50) } });
  },
  { tools: ['search'] },
);
// #endregion own

// #region short-circuit
// Answers without the tool while it is switched off (no handler runs).
const maintenance = process.env.MAINTENANCE === '1';
server.use(
  async (context, next): Promise<CallToolResult> =>
    maintenance
      ? { content: [{ type: 'text', text: 'Search is down for maintenance until 10:00 UTC.' }], isError: true }
      : ((await next()) as CallToolResult),
  { tools: ['search'] },
);
// #endregion short-circuit

// #region built-ins
server.use(auditLog()); // every request to the server's logger (stderr): method, tool, principal, outcome, ms
server.use(openTelemetry()); // spans and metrics to the app's own OTel SDK setup
server.use(rateLimit({ points: 30, durationMs: 60_000, tools: { search: { points: 5, durationMs: 10_000 } } }), {
  methods: ['tools/call'],
});
server.use(responseCache({ ttlMs: 30_000, maxEntries: 500 }));
// #endregion built-ins

await server.start();
