// One surface over the four ways a client reaches a server (stdio / HTTP x legacy / 2026-07-28),
// speaking raw JSON-RPC, so protocol-error tests run the same cases on every transport and era.
import { z } from 'zod';
import type { BaseMcpServer } from '../../src/mcp/mcp-server.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { messages, openSession, post, sessionHeaders, startServer } from '../e2e/http-helpers.js';
import { MODERN_META, RawStdio, type RpcMessage } from '../support/raw-stdio.js';

export type TargetName = 'stdio legacy' | 'stdio modern' | 'http legacy' | 'http modern';
export const TARGETS: readonly TargetName[] = ['stdio legacy', 'stdio modern', 'http legacy', 'http modern'];

/** What a raw exchange gave back: the JSON-RPC answer (if any) and, on HTTP, the status. */
export interface Answer {
  status?: number;
  message?: RpcMessage;
}

export interface Target {
  readonly name: TargetName;
  readonly modern: boolean;
  /** Sends a request (`params._meta` gets the 2026-07-28 envelope on modern targets) and returns the answer. */
  request(id: unknown, method: string, params?: Record<string, unknown>): Promise<Answer>;
  /** Sends a raw body or line as is (string) or as JSON, and returns the first answer. */
  raw(body: unknown, idHint?: unknown): Promise<Answer>;
  close(): Promise<void>;
}

/** The tools, prompt and resources every target server has (`echo` unless the server has one already). */
export function populate(server: BaseMcpServer, withEcho = true): void {
  if (withEcho) {
    server.registerTool(
      defineTool({
        name: 'echo',
        description: 'Echoes text back.',
        inputSchema: z.object({ text: z.string() }),
        execute: ({ text }) => text,
      }),
    );
  }
  server.registerTool(
    defineTool({
      name: 'big',
      description: 'Returns `bytes` characters.',
      inputSchema: z.object({ bytes: z.number() }),
      execute: ({ bytes }) => 'x'.repeat(bytes),
    }),
  );
  server.registerTool(
    defineTool({
      name: 'client-info',
      description: 'The client the tool sees (a lone \ud800 surrogate in here goes out as U+FFFD).',
      execute: (_args, context) => JSON.stringify(context.clientInfo ?? null),
    }),
  );
  server.registerPrompt({ name: 'greet', description: 'Greets.', load: () => 'hello' });
  server.registerResource({ uri: 'memo://note/~user', name: 'note', read: () => 'note text' });
  server.registerResourceTemplate({
    uriTemplate: 'memo://item/{id}',
    name: 'item',
    read: (_uri, variables) => `item ${String(variables.id)}`,
    complete: { id: ['alpha', 'beta'] },
  });
}

function withMeta(modern: boolean, params: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!modern) return params;
  const meta = (params?._meta as Record<string, unknown> | undefined) ?? {};
  return { ...params, _meta: { ...MODERN_META, ...meta } };
}

async function stdioTarget(name: TargetName, modern: boolean, maxMessageBytes?: number): Promise<Target> {
  const raw = new RawStdio(maxMessageBytes === undefined ? {} : { maxMessageBytes });
  populate(raw.server);
  await raw.open(modern ? 'modern' : 'legacy');
  const answerFor = async (id: unknown): Promise<Answer> => ({
    message: await raw.next((message) => message.id === id && ('result' in message || 'error' in message)),
  });
  return {
    name,
    modern,
    async request(id, method, params) {
      const body = {
        jsonrpc: '2.0',
        id,
        method,
        ...(withMeta(modern, params) && { params: withMeta(modern, params) }),
      };
      raw.send(body);
      return answerFor(id);
    },
    async raw(body, idHint = null) {
      raw.send(body);
      return answerFor(idHint);
    },
    close: () => raw.close(),
  };
}

/** The `Mcp-Name` header of a 2026-07-28 POST (`params.name` or `params.uri`), when it can be a header value. */
function mcpName(params: Record<string, unknown> | undefined): Record<string, string> {
  const value = params?.name ?? params?.uri;
  return typeof value === 'string' && /^[\x20-\x7e]*$/.test(value) ? { 'Mcp-Name': value } : {};
}

async function httpTarget(name: TargetName, modern: boolean): Promise<Target> {
  let server: HttpMcpServer | undefined;
  server = await startServer();
  populate(server, false);
  const url = server.address!.url;
  const headers = modern ? { 'Mcp-Protocol-Version': '2026-07-28' } : sessionHeaders(await openSession(url));
  const exchange = async (body: unknown, extra: Record<string, string> = {}): Promise<Answer> => {
    const response = await post(url, body, { ...headers, ...extra });
    const [message] = await messages(response);
    return { status: response.status, message };
  };
  return {
    name,
    modern,
    request: (id, method, params) =>
      exchange(
        { jsonrpc: '2.0', id, method, ...(withMeta(modern, params) && { params: withMeta(modern, params) }) },
        modern ? { 'Mcp-Method': method, ...mcpName(params) } : {},
      ),
    raw: (body) => exchange(body),
    async close() {
      await server?.stop();
      server = undefined;
    },
  };
}

/** Starts a fresh server for `name`, populated with {@link populate}. */
export function openTarget(name: TargetName, options: { maxMessageBytes?: number } = {}): Promise<Target> {
  const modern = name.endsWith('modern');
  return name.startsWith('stdio') ? stdioTarget(name, modern, options.maxMessageBytes) : httpTarget(name, modern);
}
