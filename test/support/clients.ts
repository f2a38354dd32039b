import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The three client flavours every contract test runs with. */
export type ClientKind = 'v1' | 'v2-legacy' | 'v2-modern';
export const CLIENT_KINDS: readonly ClientKind[] = ['v1', 'v2-legacy', 'v2-modern'];

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: unknown };
type PromptInfo = {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; required?: boolean }>;
};
type PromptResult = {
  description?: string;
  messages: Array<{ role: string; content: { type: string; text?: string } }>;
};
type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
type Completion = { values: string[]; total?: number; hasMore?: boolean };
type TemplateInfo = { uriTemplate: string; name: string; mimeType?: string };

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
  readonly promptsChanged: Counter;
  /** `notifications/resources/updated` received, counted; their URIs in arrival order. */
  readonly resourceUpdated: Counter;
  readonly updatedUris: string[];
  toolNames(): Promise<string[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  resources(): Promise<Array<{ uri: string; name: string; mimeType?: string }>>;
  readResource(
    uri: string,
  ): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: string; blob?: string }> }>;
  prompts(): Promise<PromptInfo[]>;
  getPrompt(name: string, args?: Record<string, string>): Promise<PromptResult>;
  complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<Completion>;
  resourceTemplates(): Promise<TemplateInfo[]>;
  /** Asks for updates of `uri`: `resources/subscribe` (legacy) or a `subscriptions/listen` stream (2026-07-28). */
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  /** The server's `instructions` as this client received them (initialize or server/discover). */
  instructions(): string | undefined;
  close(): Promise<void>;
}

/** The request methods the v1 and v2 SDK clients share, with the same names and shapes. */
interface SdkClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<{ resources: Array<{ uri: string; name: string; mimeType?: string }> }>;
  readResource(params: { uri: string }): Promise<unknown>;
  listPrompts(): Promise<{ prompts: PromptInfo[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
  complete(params: Record<string, unknown>): Promise<{ completion: Completion }>;
  listResourceTemplates(): Promise<{ resourceTemplates: TemplateInfo[] }>;
  subscribeResource(params: { uri: string }): Promise<unknown>;
  unsubscribeResource(params: { uri: string }): Promise<unknown>;
  getInstructions(): string | undefined;
  close(): Promise<void>;
}

/** The part of {@link TestClient} that both SDK clients serve the same way. */
function sharedSurface(client: SdkClient) {
  return {
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    callTool: async (name: string, args?: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args ?? {} })) as CallResult,
    resources: async () => (await client.listResources()).resources,
    readResource: async (uri: string) => (await client.readResource({ uri })) as never,
    prompts: async () => (await client.listPrompts()).prompts,
    getPrompt: async (name: string, args?: Record<string, string>) =>
      (await client.getPrompt({ name, arguments: args })) as PromptResult,
    complete: async (ref: CompletionRef, argument: { name: string; value: string }, context?: Record<string, string>) =>
      (await client.complete({ ref, argument, ...(context && { context: { arguments: context } }) })).completion,
    resourceTemplates: async () => (await client.listResourceTemplates()).resourceTemplates,
    subscribe: async (uri: string) => void (await client.subscribeResource({ uri })),
    unsubscribe: async (uri: string) => void (await client.unsubscribeResource({ uri })),
    instructions: () => client.getInstructions(),
    close: () => client.close(),
  };
}

/** Anything the SDKs accept as a client transport. */
type AnyTransport = Parameters<ClientV1['connect']>[0];

/**
 * Connects a client of `kind` over `transport` and, on the 2026-07-28 era, opens a
 * `subscriptions/listen` stream for tool, resource and prompt list changes.
 */
export async function connectClient(kind: ClientKind, transport: unknown): Promise<TestClient> {
  const toolsChanged = new Counter();
  const resourcesChanged = new Counter();
  const promptsChanged = new Counter();
  const resourceUpdated = new Counter();
  const updatedUris: string[] = [];
  const onUpdated = (uri: string) => {
    updatedUris.push(uri);
    resourceUpdated.bump();
  };
  const counters = { toolsChanged, resourcesChanged, promptsChanged, resourceUpdated, updatedUris };
  const info = { name: `contract-${kind}`, version: '1.0.0' };
  if (kind === 'v1') {
    const client = new ClientV1(info);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => toolsChanged.bump());
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => resourcesChanged.bump());
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () => promptsChanged.bump());
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (note) => onUpdated(note.params.uri));
    await client.connect(transport as AnyTransport);
    return { kind, ...counters, ...sharedSurface(client as unknown as SdkClient) };
  }
  const client = new ClientV2(info, {
    versionNegotiation: { mode: kind === 'v2-modern' ? { pin: '2026-07-28' } : 'legacy' },
  });
  client.setNotificationHandler('notifications/tools/list_changed', async () => toolsChanged.bump());
  client.setNotificationHandler('notifications/resources/list_changed', async () => resourcesChanged.bump());
  client.setNotificationHandler('notifications/prompts/list_changed', async () => promptsChanged.bump());
  client.setNotificationHandler('notifications/resources/updated', async (note) => onUpdated(note.params.uri));
  await client.connect(transport as never);
  const modern = kind === 'v2-modern';
  if (modern) await client.listen({ toolsListChanged: true, resourcesListChanged: true, promptsListChanged: true });
  const listens = new Map<string, { close(): Promise<void> }>();
  return {
    kind,
    ...counters,
    ...sharedSurface(client as unknown as SdkClient),
    subscribe: async (uri: string) => {
      if (!modern) return void (await client.subscribeResource({ uri }));
      listens.set(uri, await client.listen({ resourceSubscriptions: [uri] }));
    },
    unsubscribe: async (uri: string) => {
      if (!modern) return void (await client.unsubscribeResource({ uri }));
      await listens.get(uri)?.close();
      listens.delete(uri);
    },
  };
}
