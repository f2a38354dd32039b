import { importOptional } from '../lazy-module.js';
import type { ResolvedUpstreamConfig, StdioUpstreamConfig, HttpUpstreamConfig } from './upstream-config.js';

/** The official v2 client package (an optional peer dependency, loaded on the first `addUpstream()`). */
export type ClientModule = typeof import('@modelcontextprotocol/client');
type Transport = import('@modelcontextprotocol/client').Transport;

let loading: Promise<ClientModule> | undefined;

/**
 * Loads `@modelcontextprotocol/client` once.
 * @throws MissingDependencyError (`npm install @modelcontextprotocol/client`) when it is not installed.
 */
export function loadClient(): Promise<ClientModule> {
  loading ??= importOptional<ClientModule>('@modelcontextprotocol/client', 'addUpstream()');
  loading.catch(() => (loading = undefined)); // a later call may find it installed
  return loading;
}

/** A transport to the upstream, and for stdio a way to read what its child writes to stderr. */
export interface UpstreamTransport {
  readonly transport: Transport;
  /** The child's stderr (stdio only). */
  readonly stderr?: NodeJS.EventEmitter | null;
  /** The child's process id once it started (stdio only). */
  pid(): number | undefined;
}

/**
 * Builds the SDK client transport for an upstream: the SDK's `StdioClientTransport` (the child gets
 * the SDK's default environment plus `env`, and `cwd`) or `StreamableHTTPClientTransport` with
 * `headers` on every request.
 */
export async function createUpstreamTransport(
  module: ClientModule,
  config: ResolvedUpstreamConfig,
): Promise<UpstreamTransport> {
  if ('url' in config && config.url !== undefined) {
    const { url, headers } = config as HttpUpstreamConfig;
    const transport = new module.StreamableHTTPClientTransport(new URL(url), {
      ...(headers && { requestInit: { headers: { ...headers } } }),
    });
    return { transport, pid: () => undefined };
  }
  // Through importOptional (a specifier bundlers do not follow): the client's stdio transport spawns
  // processes, which `mcp-toolkit/fetch` on workerd must not pull in; HTTP upstreams work there.
  const { StdioClientTransport, getDefaultEnvironment } = await importOptional<
    typeof import('@modelcontextprotocol/client/stdio')
  >('@modelcontextprotocol/client/stdio', 'a stdio upstream (addUpstream({ command }))');
  const { command, args = [], env = {}, cwd } = config as StdioUpstreamConfig;
  const transport = new StdioClientTransport({
    command,
    args: [...args],
    env: { ...getDefaultEnvironment(), ...env },
    ...(cwd !== undefined && { cwd }),
    stderr: 'pipe',
  });
  return { transport, stderr: transport.stderr, pid: () => transport.pid ?? undefined };
}
