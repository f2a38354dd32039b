/** Public names of the composition folder, for the server facade and the `mcp-toolkit/composition` subpath. */
export { Composition, type UpstreamHandle } from './composition.js';
export type { WhenConnectedOptions } from './connect-waiters.js';
export type { MountHandle, MountOptions, MountSource } from './mount.js';
export { NAMESPACE_SEPARATOR, namespacedName } from './namespace.js';
export { parseServersConfig, upstreamNameOf } from './servers-config.js';
export type { HttpUpstreamConfig, StdioUpstreamConfig, UpstreamBackoff, UpstreamConfig } from './upstream-config.js';
export type { UpstreamState, UpstreamStatus } from '../upstream-status.js';
