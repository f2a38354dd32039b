// Raw JSON-RPC over a StdioMcpServer's real stdio transport (in-process streams), for the
// cases SDK clients never send: malformed params, bad ids, batches, a second initialize.
import { PassThrough } from 'node:stream';
import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { StdioMcpServer, type StdioMcpServerOptions } from '../../src/mcp/stdio-server.js';
import { silentLogger } from './in-memory.js';

export type RpcMessage = Record<string, unknown> & {
  id?: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
};

/** The `_meta` envelope of a 2026-07-28 request. */
export const MODERN_META = {
  [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2025-11-25 `initialize` request. */
export function initializeRequest(id: number | string = 1, clientName = 'raw'): RpcMessage {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: clientName, version: '1.0.0' } },
  };
}

/** A StdioMcpServer on in-process pipes, and a line-oriented raw client for it. */
export class RawStdio {
  readonly server: StdioMcpServer;
  readonly received: RpcMessage[] = [];
  /** Lines written to stdout that were not JSON (must stay empty: stdio purity). */
  readonly garbage: string[] = [];
  readonly #stdin = new PassThrough();
  readonly #stdout = new PassThrough();
  #buffer = '';
  #waiters: Array<() => void> = [];

  constructor(options: StdioMcpServerOptions = {}) {
    this.server = new StdioMcpServer(
      { name: 'raw-stdio', version: '1.0.0' },
      { logger: silentLogger(), ...options, stdin: this.#stdin, stdout: this.#stdout },
    );
    this.#stdout.setEncoding('utf8');
    this.#stdout.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let newline: number;
      while ((newline = this.#buffer.indexOf('\n')) >= 0) {
        const line = this.#buffer.slice(0, newline);
        this.#buffer = this.#buffer.slice(newline + 1);
        try {
          this.received.push(JSON.parse(line) as RpcMessage);
        } catch {
          this.garbage.push(line);
        }
      }
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }

  /** Writes one message (an object as JSON, a string as is) followed by a newline. */
  send(message: unknown): void {
    this.#stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /** The first received message matching `predicate` (removed from `received`); rejects after `timeoutMs`. */
  async next(predicate: (message: RpcMessage) => boolean, timeoutMs = 5_000): Promise<RpcMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.received.findIndex(predicate);
      if (index >= 0) return this.received.splice(index, 1)[0]!;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; received so far: ${JSON.stringify(this.received).slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }

  /** Sends a request and waits for the response with its id. */
  async request(id: number | string, method: string, params?: unknown, modern = false): Promise<RpcMessage> {
    const withMeta = modern
      ? { ...(params as object | undefined), _meta: { ...MODERN_META, ...(params as { _meta?: object })?._meta } }
      : params;
    this.send({ jsonrpc: '2.0', id, method, ...(withMeta !== undefined && { params: withMeta }) });
    return this.next((message) => message.id === id && ('result' in message || 'error' in message));
  }

  /** Starts the server and, for the legacy era, performs the initialize handshake. */
  async open(era: 'legacy' | 'modern', clientName = 'raw'): Promise<RpcMessage | undefined> {
    await this.server.start();
    if (era === 'modern') return undefined;
    this.send(initializeRequest(0, clientName));
    const answer = await this.next((message) => message.id === 0);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return answer;
  }

  async close(): Promise<void> {
    this.#stdin.end();
    await this.server.stop();
  }
}
