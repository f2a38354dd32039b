import type { McpRequestContext, Server } from '@modelcontextprotocol/server';

/**
 * Each server's long-lived view factory (its `createFreshMcpServer`), reachable by the
 * toolkit's own modules (the `mcp-toolkit/testing` helpers) without making it public API.
 */
const factories = new WeakMap<object, (context?: McpRequestContext) => Server>();

/** Called once by the `BaseMcpServer` constructor. */
export function setViewFactory(server: object, factory: (context?: McpRequestContext) => Server): void {
  factories.set(server, factory);
}

/**
 * The view factory of `server`.
 * @throws TypeError when `server` is not a `BaseMcpServer`.
 */
export function viewFactoryOf(server: object): (context?: McpRequestContext) => Server {
  const factory = factories.get(server);
  if (!factory) throw new TypeError('Expected an mcp-toolkit server (an instance of a BaseMcpServer subclass).');
  return factory;
}
