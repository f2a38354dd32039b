// Clients of each era for the composition tests, with the per-call options (progress, signal) the
// shared contract clients do not expose.
import { createRequire } from 'node:module';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLIENT_KINDS, Counter, type ClientKind } from '../support/clients.js';
import { HttpMcpServer } from '../../dist/index.js';
import type { UpstreamConfig, UpstreamHandle } from '../../dist/public/composition.js';

export { CLIENT_KINDS, Counter, type ClientKind };

const require = createRequire(import.meta.url);
/** server-everything's entry (argument `stdio` or `streamableHttp`, port from `PORT`). */
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
/** server-filesystem's entry (arguments: the allowed folders). */
export const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

/** What a `tools/call` answered. */
export type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
/** Per-call options. */
export interface CallOptions {
  onprogress?: (progress: { progress: number; total?: number }) => void;
  signal?: AbortSignal;
}

/** One client of a gateway, whatever its SDK and era. */
export interface GatewayClient {
  readonly kind: ClientKind;
  readonly toolsChanged: Counter;
  names(): Promise<string[]>;
  call(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<CallResult>;
  close(): Promise<void>;
}

/** Connects a client of `kind` to the Streamable HTTP endpoint `url` (2026-07-28 clients open a listen stream). */
export async function connectGatewayClient(kind: ClientKind, url: string): Promise<GatewayClient> {
  const toolsChanged = new Counter();
  const info = { name: `gateway-${kind}`, version: '1.0.0' };
  if (kind === 'v1') {
    const client = new ClientV1(info);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => toolsChanged.bump());
    await client.connect(new HttpV1(new URL(url)));
    return {
      kind,
      toolsChanged,
      names: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: async (name, args = {}, options = {}) =>
        (await client.callTool({ name, arguments: args }, undefined, { ...options, timeout: 20_000 })) as CallResult,
      close: () => client.close(),
    };
  }
  const client = new ClientV2(info, {
    versionNegotiation: { mode: kind === 'v2-modern' ? { pin: '2026-07-28' } : 'legacy' },
  });
  client.setNotificationHandler('notifications/tools/list_changed', async () => toolsChanged.bump());
  await client.connect(new HttpV2(new URL(url)));
  if (kind === 'v2-modern') await client.listen({ toolsListChanged: true });
  return {
    kind,
    toolsChanged,
    names: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args = {}, options = {}) =>
      (await client.callTool({ name, arguments: args }, { ...options, timeout: 20_000 })) as CallResult,
    close: () => client.close(),
  };
}

/** Polls `check` every 25 ms until it is true; rejects naming `what` after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits `ms` (to show that no further notification follows). */
export const quiet = (ms = 400) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger that keeps every line it was given (as JSON), to check that no secret is logged. */
export function recordingLogger(lines: string[]) {
  const record =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push(
        `${level} ${JSON.stringify(args, (_key, value) => (value instanceof Error ? value.message : value))}`,
      );
  const logger = {
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    child: (bindings: unknown) => {
      lines.push(`child ${JSON.stringify(bindings)}`);
      return logger;
    },
  };
  return logger as never;
}

/** What {@link startGateway} started. */
export interface StartedGateway {
  readonly own: HttpMcpServer;
  readonly gateway: HttpMcpServer;
  /** server-everything over stdio, then our own server over HTTP, then `more`, in that order. */
  readonly upstreams: UpstreamHandle[];
  /** Closes `clients`, then the gateway (and its upstreams), then our own server. */
  stop(clients: ReadonlyArray<{ close(): Promise<void> }>): Promise<void>;
}

/**
 * Starts one of our own servers (HTTP, 2026-07-28; `setupOwn` registers its tools and resources) and a
 * gateway (HTTP, logging into `lines`) in front of server-everything (stdio, handshake era; `everything`
 * adds to its config) and our own server, plus the `more` upstreams; resolves once all are connected.
 */
export async function startGateway(
  setupOwn: (own: HttpMcpServer) => void,
  options: { lines?: string[]; everything?: Partial<UpstreamConfig>; more?: UpstreamConfig[] } = {},
): Promise<StartedGateway> {
  const own = new HttpMcpServer({ name: 'own', version: '1.0.0' }, { port: 0, logger: recordingLogger([]) });
  setupOwn(own);
  await own.start();
  const logger = recordingLogger(options.lines ?? []);
  const gateway = new HttpMcpServer({ name: 'gateway', version: '1.0.0' }, { port: 0, logger });
  const everything = { name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'] };
  const upstreams = [
    gateway.addUpstream({ ...everything, ...options.everything } as UpstreamConfig),
    gateway.addUpstream({ name: 'own', url: own.address.url }),
    ...(options.more ?? []).map((config) => gateway.addUpstream(config)),
  ];
  await gateway.start();
  await Promise.all(upstreams.map((upstream) => upstream.whenConnected()));
  return {
    own,
    gateway,
    upstreams,
    stop: async (clients) => {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
      await gateway.stop();
      await own.stop();
    },
  };
}
