/* global Bun */
// mcp-toolkit/fetch on Bun (Bun.serve), for bench/fetch-handler.mjs: prints `PORT <n>` once listening.
import { FetchMcpServer, defineTool, toFetchHandler } from '../../dist/public/fetch.js';
import { DESCRIPTION, echo, schema, toolName } from './tools.mjs';

const silent = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const server = new FetchMcpServer({ name: 'bench', version: '1.0.0' }, { logger: silent });
server.registerTool(defineTool({ name: toolName(0), description: DESCRIPTION, inputSchema: schema(), execute: echo }));
await server.start();
const served = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: toFetchHandler(server) });
console.log(`PORT ${served.port}`);
setTimeout(() => process.exit(124), 120_000); // a hard stop, as every bench child has
