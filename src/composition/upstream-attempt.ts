import type { Tool as ListedTool } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.js';
import { skipUnboundedTimers } from '../mcp/sdk-internals/upstream-client.js';
import { createUpstreamTransport, type ClientModule, type UpstreamTransport } from './client-loader.js';
import type { ResolvedUpstreamConfig } from './upstream-config.js';
import type { ProgressRouter } from './forwarded-call.js';
import { RELAYED_CAPABILITIES, type CallRelay } from './call-relay.js';

type Client = import('@modelcontextprotocol/client').Client;

/** How much of a starting child's stderr `stderrTail()` keeps, in characters. */
const STDERR_TAIL_CHARS = 300;

/** What one connection attempt reports back to its `Upstream` (each only while the attempt is current). */
export interface AttemptHooks {
  /** The upstream's tool list after its `list_changed` (or why reading it failed). */
  readonly toolsChanged: (error: Error | null, tools: ListedTool[] | null) => void;
  readonly promptsChanged: () => void;
  readonly resourcesChanged: () => void;
}

/** One attempt's client, not connected yet, and what came with its transport. */
export interface UpstreamAttempt {
  readonly client: Client;
  readonly transport: UpstreamTransport['transport'];
  /** The stdio child's PID once it runs (undefined over HTTP). */
  readonly pid: () => number | undefined;
  /** The last ~300 characters the child wrote to stderr, redacted: why a child that exits at start failed. */
  readonly stderrTail: () => string;
  /**
   * Resolves once the child's stderr has ended (at once over HTTP), or after `ms` (ms) at the latest:
   * a child's last words can be read after its connection is seen closed.
   */
  readonly stderrSettled: (ms: number) => Promise<void>;
}

/**
 * Makes the transport and the official v2 client of one connection attempt: `'auto'` era
 * negotiation, the relayed capabilities, `list_changed` handlers (tools refreshed by the SDK, prompts
 * and resources by the caller), progress and the call relay attached, no unbounded SDK timers (a
 * forwarded call is timed by `forwardToolCall`). Rejects as `createUpstreamTransport` does.
 */
export async function openUpstreamAttempt(
  module: ClientModule,
  config: ResolvedUpstreamConfig,
  clientInfo: { name: string; version: string },
  wiring: { log: Logger; redact: (text: string) => string; progress: ProgressRouter; relay: CallRelay },
  hooks: AttemptHooks,
): Promise<UpstreamAttempt> {
  const { transport, stderr, pid } = await createUpstreamTransport(module, config);
  let tail = '';
  const ended = stderr
    ? new Promise<void>((resolve) => {
        stderr.once('end', resolve);
        stderr.once('close', resolve);
      })
    : Promise.resolve();
  const stderrSettled = (ms: number) =>
    Promise.race([ended, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
  stderr?.on('data', (chunk: Buffer) => {
    const text = wiring.redact(chunk.toString().trimEnd());
    tail = `${tail}\n${text}`.trim().slice(-STDERR_TAIL_CHARS);
    wiring.log.debug({ stderr: text }, 'upstream stderr');
  });
  const client = new module.Client(clientInfo, {
    versionNegotiation: { mode: 'auto' },
    capabilities: RELAYED_CAPABILITIES,
    listChanged: {
      tools: { debounceMs: 50, onChanged: hooks.toolsChanged },
      prompts: { debounceMs: 50, autoRefresh: false, onChanged: hooks.promptsChanged },
      resources: { debounceMs: 50, autoRefresh: false, onChanged: hooks.resourcesChanged },
    },
  });
  wiring.progress.attach(client);
  wiring.relay.attach(client, module);
  skipUnboundedTimers(client);
  return { client, transport, pid, stderrTail: () => tail, stderrSettled };
}

/**
 * Connects the attempt's client with one deadline for the whole handshake (`timeoutMs`): the
 * client's own timeout applies per request, and over stdio `'auto'` negotiation sends a discovery
 * probe and then `initialize`, each allowed the full time. Rejects when the deadline passes, `signal`
 * aborts, or the SDK's `connect` rejects.
 */
export async function handshake(attempt: UpstreamAttempt, timeoutMs: number, abort: AbortController): Promise<void> {
  const deadline = setTimeout(
    () => abort.abort(new Error(`no answer to the MCP handshake within ${timeoutMs} ms`)),
    timeoutMs,
  );
  try {
    await attempt.client.connect(attempt.transport, { timeout: timeoutMs, signal: abort.signal });
  } finally {
    clearTimeout(deadline);
  }
}
