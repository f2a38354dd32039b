import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The three client flavours every contract test runs with. */
export type ClientKind = 'v1' | 'v2-legacy' | 'v2-modern';
export const CLIENT_KINDS: readonly ClientKind[] = ['v1', 'v2-legacy', 'v2-modern'];

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: unknown };

/** Counts one kind of notification and lets a test wait for the n-th one. */
export class Counter {
  count = 0;
  #waiters: Array<{ n: number; resolve: () => void }> = [];
  bump(): void {
    this.count += 1;
    this.#waiters = this.#waiters.filter((waiter) => (waiter.n <= this.count ? (waiter.resolve(), false) : true));
  }
  /** Resolves when at least `n` notifications arrived; rejects after `timeoutMs`. */
  waitFor(n: number, timeoutMs = 5_000): Promise<void> {
    if (this.count >= n) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for notification #${n} (got ${this.count})`)),
        timeoutMs,
      );
      this.#waiters.push({ n, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }
}

/** One connected client, whatever its SDK and era, behind one small surface. */
export interface TestClient {
  readonly kind: ClientKind;
  readonly toolsChanged: Counter;
  readonly resourcesChanged: Counter;
  toolNames(): Promise<string[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  resources(): Promise<Array<{ uri: string; name: string; mimeType?: string }>>;
  readResource(
    uri: string,
  ): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>;
  close(): Promise<void>;
}

/** Anything the SDKs accept as a client transport. */
type AnyTransport = Parameters<ClientV1['connect']>[0];

/**
 * Connects a client of `kind` over `transport` and, on the 2026-07-28 era, opens a
 * `subscriptions/listen` stream for tool and resource list changes.
 */
export async function connectClient(kind: ClientKind, transport: unknown): Promise<TestClient> {
  const toolsChanged = new Counter();
  const resourcesChanged = new Counter();
  const info = { name: `contract-${kind}`, version: '1.0.0' };
  if (kind === 'v1') {
    const client = new ClientV1(info);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => toolsChanged.bump());
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => resourcesChanged.bump());
    await client.connect(transport as AnyTransport);
    return {
      kind,
      toolsChanged,
      resourcesChanged,
      toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
      callTool: async (name, args) => (await client.callTool({ name, arguments: args ?? {} })) as CallResult,
      resources: async () => (await client.listResources()).resources,
      readResource: async (uri) => (await client.readResource({ uri })) as never,
      close: () => client.close(),
    };
  }
  const client = new ClientV2(info, {
    versionNegotiation: { mode: kind === 'v2-modern' ? { pin: '2026-07-28' } : 'legacy' },
  });
  client.setNotificationHandler('notifications/tools/list_changed', async () => toolsChanged.bump());
  client.setNotificationHandler('notifications/resources/list_changed', async () => resourcesChanged.bump());
  await client.connect(transport as never);
  if (kind === 'v2-modern') await client.listen({ toolsListChanged: true, resourcesListChanged: true });
  return {
    kind,
    toolsChanged,
    resourcesChanged,
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    callTool: async (name, args) => (await client.callTool({ name, arguments: args ?? {} })) as CallResult,
    resources: async () => (await client.listResources()).resources,
    readResource: async (uri) => (await client.readResource({ uri })) as never,
    close: () => client.close(),
  };
}
