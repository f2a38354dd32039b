import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import { serverSlot } from '../../server-slot.js';

const slot = serverSlot<(context?: McpRequestContext) => Server>();

/** Called once by the `BaseMcpServer` constructor. */
export const setViewFactory: (server: object, value: (context?: McpRequestContext) => Server) => void = slot.set;

/**
 * The long-lived view factory of `server` (its `createFreshMcpServer`, a subclass's override included), for
 * `serveStdio` (one view per connection), `serveHttp` (one per legacy session) and `connectInMemory`,
 * without making the protected method public API.
 * @throws TypeError when `server` is not a `BaseMcpServer`.
 */
export const viewFactoryOf: (server: object) => (context?: McpRequestContext) => Server = slot.of;
