/**
 * mcp-toolkit/testing: helpers for testing apps built on the toolkit. A separate entry point so
 * the main one never loads `@modelcontextprotocol/client` (needed only here and by the CLI's
 * client commands).
 */
export { connectInMemory, type ConnectInMemoryOptions, type InMemoryConnection } from './connect-in-memory.js';
