import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import { serverSlot } from '../../server-slot.js';

const slot = serverSlot<(context?: McpRequestContext) => Server>();

/** Called once by the `BaseMcpServer` constructor. */
export const setViewFactory: (server: object, value: (context?: McpRequestContext) => Server) => void = slot.set;

/**
 * The long-lived view factory of `server` (its `createFreshMcpServer`), for the `mcp-toolkit/testing` helpers without making it public API.
 * @throws TypeError when `server` is not a `BaseMcpServer`.
 */
export const viewFactoryOf: (server: object) => (context?: McpRequestContext) => Server = slot.of;
