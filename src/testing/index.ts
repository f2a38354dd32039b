/**
 * mcp-toolkit/testing: helpers for testing apps built on the toolkit. A separate entry point so
 * the main one never loads `@modelcontextprotocol/client` (an optional peer dependency needed
 * only here).
 */
export { connectInMemory, type ConnectInMemoryOptions, type InMemoryConnection } from './connect-in-memory.js';
