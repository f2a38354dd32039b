// Shared helpers of the HttpMcpServer end-to-end tests: a server with two small tools,
// and a raw Streamable HTTP client (fetch) for the cases the SDK clients hide.
import { z } from 'zod';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import type { HttpMcpServerOptions } from '../../src/mcp/transports/http/options.js';
import { defineTool } from '../../src/registry/tool.js';

/** Options every test server shares: a free port and no log noise. */
const QUIET = { port: 0, logger: silentLogger() } as const;

function silentLogger(): NonNullable<HttpMcpServerOptions['logger']> {
  const noop = () => {};
  const logger = { debug: noop, info: noop, warn: noop, error: noop, child: () => logger };
  return logger as never;
}

/** Starts an HttpMcpServer on 127.0.0.1:0 with `echo` and `whoami` (returns the caller's auth info and session). */
export async function startServer(options: HttpMcpServerOptions = {}): Promise<HttpMcpServer> {
  const server = new HttpMcpServer({ name: 'http-test', version: '1.0.0' }, { ...QUIET, ...options });
  server.registerTool(
    defineTool({
      name: 'echo',
      description: 'Echoes text back.',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    }),
  );
  server.registerTool(
    defineTool({
      name: 'whoami',
      description: 'Returns the auth info and session id the tool sees.',
      execute: (_args, context) =>
        JSON.stringify({ clientId: context.authInfo?.clientId ?? null, sessionId: context.sessionId ?? null }),
    }),
  );
  await server.start();
  return server;
}

/** Headers of a 2025-era POST. */
export const POST_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

/** A 2025-11-25 `initialize` request. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};

/** POSTs a JSON body (or a raw string) to the endpoint. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...POST_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** The JSON-RPC messages of a response, whether it is plain JSON or an SSE stream. */
export async function messages(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return text ? [JSON.parse(text) as Record<string, unknown>] : [];
  }
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 6)
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

/** Opens a legacy session the raw way (initialize + initialized); returns its id. */
export async function openSession(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await post(url, INITIALIZE, headers);
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
  const id = response.headers.get('mcp-session-id');
  await response.text();
  if (!id) throw new Error('initialize answered without Mcp-Session-Id');
  const initialized = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    sessionHeaders(id, headers),
  );
  await initialized.text();
  return id;
}

/** Headers of a request inside session `id`. */
export function sessionHeaders(id: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-11-25', ...extra };
}

/** `tools/list` inside a session: the HTTP status and the tool names (or the error). */
export async function listTools(
  url: string,
  id: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; names?: string[]; error?: { code: number; message: string } }> {
  const response = await post(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, sessionHeaders(id, headers));
  const [message] = await messages(response);
  const result = message?.result as { tools: Array<{ name: string }> } | undefined;
  return {
    status: response.status,
    names: result?.tools.map((tool) => tool.name),
    error: message?.error as { code: number; message: string } | undefined,
  };
}

/** Waits until `predicate` holds, polling every 5 ms; throws after `timeoutMs`. */
export async function until(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** One server-sent event: its `id:` (if any), its `data:` parsed as JSON (undefined when empty). */
export interface SseEvent {
  id?: string;
  message?: Record<string, unknown>;
}

/**
 * Reads SSE events from a streaming response until `done(events)` holds, the stream ends
 * or `timeoutMs` passes (then it throws); the stream is cancelled unless it ended.
 * Returns the events read (comments such as keepalives are skipped).
 */
export async function readSse(
  response: Response,
  done: (events: SseEvent[]) => boolean,
  timeoutMs = 5_000,
): Promise<SseEvent[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = '';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`SSE: timed out after ${timeoutMs} ms with ${events.length} events`)),
      timeoutMs,
    );
  });
  try {
    while (!done(events)) {
      const { value, done: ended } = await Promise.race([reader.read(), timeout]);
      if (ended) return events;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = {};
        let data: string | undefined;
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('data: ')) data = line.slice(6);
        }
        if (event.id === undefined && data === undefined) continue; // a comment (keepalive)
        if (data) event.message = JSON.parse(data) as Record<string, unknown>;
        events.push(event);
      }
    }
    await reader.cancel().catch(() => {});
    return events;
  } finally {
    clearTimeout(timer);
  }
}

/** A GET stream (standalone SSE) of session `id`. */
export function openStream(url: string, id: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers: { Accept: 'text/event-stream', ...sessionHeaders(id), ...headers } });
}

/** Resolves with a child process's exit code, or 'hung' (after killing it) when it outlives `ms`. */
export function exitWithin(
  child: import('node:child_process').ChildProcess,
  ms: number,
): Promise<number | null | 'hung'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('hung');
    }, ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/**
 * POSTs one 2026-07-28 request (`_meta` with the protocol version and `capabilities`, the
 * routing headers) and resolves the HTTP status and the JSON-RPC response with that id.
 */
export async function postModern(
  url: string,
  request: { id: number; method: string; params: Record<string, unknown> },
  capabilities: object,
  headers: Record<string, string> = {},
): Promise<{ status: number; message: Record<string, unknown> }> {
  const { id, method, params } = request;
  const name = (params.name ?? params.uri ?? params.taskId) as string | undefined;
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
  };
  const response = await post(
    url,
    { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } },
    {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(typeof name === 'string' && { 'Mcp-Name': name }),
      ...headers,
    },
  );
  const [message] = (await messages(response)).filter((m) => m.id === id);
  return { status: response.status, message: message ?? {} };
}
