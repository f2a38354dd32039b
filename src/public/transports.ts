/**
 * `mcp-toolkit/transports`: the transports as functions of a server (docs/transports.md). Any
 * `BaseMcpServer`, a subclass of your own included, is served over stdio with `serveStdio(server)` or
 * over Streamable HTTP with `serveHttp(server).listen()`; `StdioMcpServer` and `HttpMcpServer` are
 * shells over them. `serverLifecycleOf(server)` starts a server from a transport of your own.
 */
export { serveStdio, type StdioServing } from '../mcp/transports/stdio/serve-stdio.js';
export type { StdioServeOptions } from '../mcp/transports/stdio/stdio-options.js';
export { serveHttp, type HttpServing } from '../mcp/transports/http/serve-http.js';
export type { HttpServeOptions } from '../mcp/transports/http/options.js';
export {
  serverLifecycleOf,
  type ServerLifecycle,
  type ServerState,
  type ServableServer,
} from '../mcp/server/server-lifecycle.js';
