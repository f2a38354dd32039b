/**
 * `mcp-toolkit/composition`: the shapes of composing MCP servers (docs/composition.md). The methods
 * are on every server (`server.addUpstream(config)`, `server.mount(other, { namespace })`,
 * `server.upstreams`); this entry names their configuration, handles and states, and the errors.
 */
export { UpstreamError } from '../errors.js';
export { namespacedName } from '../composition/namespace.js';
export type { UpstreamHandle } from '../composition/composition.js';
export type { WhenConnectedOptions } from '../composition/connect-waiters.js';
export type { MountHandle, MountOptions, MountSource } from '../composition/mount.js';
export type {
  HttpUpstreamConfig,
  StdioUpstreamConfig,
  UpstreamBackoff,
  UpstreamConfig,
} from '../composition/upstream-config.js';
export type { UpstreamState, UpstreamStatus } from '../composition/upstream.js';
