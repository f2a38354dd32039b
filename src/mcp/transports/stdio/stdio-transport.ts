import type { Readable, Writable } from 'node:stream';
import {
  serializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import {
  checkJsonRpcMessage,
  deliverCheckedRequest,
  parseErrorResponse,
  plainMessageKind,
  type RefusalResponse,
} from '../../wire/json-rpc-shape.js';
import { oversizeReplacement } from './outgoing-limit.js';
import { SteadyMap } from '../../server/steady-table.js';
import type { Logger } from '../../../logger.js';
import { WELL_FORMED_AT_WIRE, wellFormed, wellFormedLine, WRITES_WELL_FORMED } from '../../wire/well-formed.js';

const RESOLVED: Promise<void> = Promise.resolve();

/** Limits (in bytes) and owner hook of one {@link StdioTransport}. */
export interface StdioTransportOptions {
  /** Largest line written; larger messages are replaced (see `oversizeReplacement`). */
  maxMessageBytes: number;
  /** Largest line read; beyond it the connection closes (the SDK's 10 MiB by default). */
  maxInboundBytes?: number;
  /**
   * After stdin ends, how long requests already read may still be answered before the transport
   * closes (ms; default {@link DEFAULT_STDIN_CLOSE_GRACE_MS}). 0 closes at once.
   */
  stdinCloseGraceMs?: number;
  /** Told once, after the SDK's `onclose`, when the transport closes (stdin ended, output failed, or `close()`). */
  onClosed?: () => void;
  /**
   * Where refused input lines and JSON-RPC error answers are reported, at `debug` (the same
   * lines for an app's `StdioMcpServer` and the CLI's). Default: not reported.
   */
  logger?: Pick<Logger, 'debug'>;
}

/** Longest part of a refused input line quoted in a diagnostic. */
const QUOTED_LINE_CHARS = 200;

/**
 * Default of `stdinCloseGraceMs`: 10 s. A client that ends stdin right after writing its requests
 * (`printf '...' | server`, scripts, some test harnesses) still reads the answers; MCP's stdio
 * shutdown has the client wait for the server to exit before it sends SIGTERM.
 */
export const DEFAULT_STDIN_CLOSE_GRACE_MS = 10_000;

/** Requests that stay open by design and are not waited for when stdin ends. */
const LONG_LIVED_METHODS = new Set(['subscriptions/listen']);

/**
 * MCP's stdio transport (newline-delimited JSON-RPC on stdin/stdout), the SDK's framing with
 * the answers the SDK leaves out:
 * - a line that is not JSON is answered -32700 Parse error (`id: null`); blank lines are skipped;
 * - JSON that is not a JSON-RPC message (a bad id, `_meta: null`, an object progress token)
 *   is answered -32600 Invalid Request with the request's id when it can be read; a batch
 *   is refused as a whole (see `json-rpc-shape.ts`);
 * - a message whose line would exceed `maxMessageBytes` is replaced by a short error naming
 *   its size (see `outgoing-limit.ts`), so the client never sees a line it would drop the
 *   connection for;
 * - a line over `maxInboundBytes` closes the connection, as the SDK does.
 * Only JSON-RPC is written to `stdout`.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Sent with `WELL_FORMED_AT_WIRE`, a message is made well-formed here, after serializing. */
  readonly [WRITES_WELL_FORMED] = true;

  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #limits: Required<Omit<StdioTransportOptions, 'onClosed' | 'stdinCloseGraceMs' | 'logger'>>;
  readonly #graceMs: number;
  /** Set when stdin has ended and requests already read are being answered (see `stdinCloseGraceMs`). */
  #draining: NodeJS.Timeout | undefined;
  readonly #onClosed: (() => void) | undefined;
  readonly #logger: Pick<Logger, 'debug'> | undefined;
  /** Method of every request read and not yet answered, to word an oversize reply (steady: empties after every call). */
  readonly #pending = new SteadyMap<RequestId, string>();
  /** Writes waiting for stdout's 'drain'. */
  readonly #drainWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  #buffer: Buffer | undefined;
  #started = false;
  #closed = false;

  constructor(stdin: Readable, stdout: Writable, options: StdioTransportOptions) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#limits = {
      maxMessageBytes: options.maxMessageBytes,
      maxInboundBytes: options.maxInboundBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE,
    };
    this.#onClosed = options.onClosed;
    this.#logger = options.logger;
    this.#graceMs = options.stdinCloseGraceMs ?? DEFAULT_STDIN_CLOSE_GRACE_MS;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('StdioTransport already started');
    this.#started = true;
    if (this.#stdin.readableEnded || this.#stdin.destroyed) setImmediate(this.#onStdinClose);
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onStdinError);
    this.#stdin.on('end', this.#onStdinClose);
    this.#stdin.on('close', this.#onStdinClose);
    this.#stdout.on('error', this.#onStdoutError);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#draining);
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onStdinError);
    this.#stdin.off('end', this.#onStdinClose);
    this.#stdin.off('close', this.#onStdinClose);
    // stdout keeps an error listener: a late EPIPE after close must not crash the process.
    this.#stdout.off('error', this.#onStdoutError);
    this.#stdout.on('error', (error: Error) => {
      for (const { reject } of this.#drainWaiters.splice(0)) reject(error);
    });
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#buffer = undefined;
    this.#pending.clear();
    try {
      this.onclose?.();
    } finally {
      this.#onClosed?.();
    }
  }

  send(message: JSONRPCMessage, options?: object): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('StdioTransport is closed'));
    // Views send well-formed messages already; errors the SDK builds itself (say, an unsupported
    // protocol version) may quote client input with lone surrogates, so they are fixed here.
    if ('error' in message) message = wellFormed(message);
    let method: string | undefined;
    if ('id' in message && !('method' in message) && message.id !== undefined) {
      method = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (this.#draining) setImmediate(this.#closeWhenAnswered); // after this answer is written
      if ('error' in message) {
        const { code, message: text } = message.error;
        this.#logger?.debug({ id: message.id, method, code, error: text }, 'stdio: answered a request with an error');
      }
    }
    let line = options === WELL_FORMED_AT_WIRE ? wellFormedLine(message, serializeMessage) : serializeMessage(message);
    const limit = this.#limits.maxMessageBytes;
    // A UTF-16 code unit is at most 3 UTF-8 bytes: most lines need no byte count.
    if (line.length * 3 > limit) {
      const bytes = Buffer.byteLength(line);
      if (bytes > limit) {
        const replacement = oversizeReplacement(message, method, bytes, limit);
        if (!replacement) {
          return Promise.reject(new Error(`Message of ${bytes} bytes exceeds the stdio limit of ${limit} bytes`));
        }
        line = serializeMessage(replacement);
      }
    }
    return this.#write(line);
  }

  #write(line: string): Promise<void> {
    // Hot path: a write the pipe takes at once costs no promise of its own, no closure and no
    // listener (adding and removing an 'error' listener per message showed in W2 profiles).
    // Writes waiting for 'drain' settle together; a stdout error rejects them (see #onStdoutError).
    if (this.#stdout.write(line)) return RESOLVED;
    return new Promise((resolve, reject) => {
      this.#drainWaiters.push({ resolve, reject });
      if (this.#drainWaiters.length === 1) this.#stdout.once('drain', this.#onDrain);
    });
  }

  readonly #onDrain = (): void => {
    const waiters = this.#drainWaiters.splice(0);
    for (const { resolve } of waiters) resolve();
  };

  #refuse(reply: RefusalResponse, line: string): void {
    const { code, message } = reply.error;
    const quoted = line.length > QUOTED_LINE_CHARS ? `${line.slice(0, QUOTED_LINE_CHARS)}...` : line;
    this.#logger?.debug({ code, error: message, line: quoted }, 'stdio: refused an input line');
    this.#write(serializeMessage(reply as JSONRPCMessage)).catch((error: unknown) => this.onerror?.(error as Error));
  }

  readonly #onData = (chunk: Buffer): void => {
    const size = (this.#buffer?.length ?? 0) + chunk.length;
    if (size > this.#limits.maxInboundBytes) {
      this.#buffer = undefined;
      this.onerror?.(new Error(`A stdio line exceeded the maximum of ${this.#limits.maxInboundBytes} bytes`));
      void this.close();
      return;
    }
    this.#buffer = this.#buffer ? Buffer.concat([this.#buffer, chunk], size) : chunk;
    let newline: number;
    while (!this.#closed && this.#buffer && (newline = this.#buffer.indexOf(10)) >= 0) {
      // A CR before the LF is dropped (CRLF lines); a 0x0D byte is never part of a multibyte character.
      const end = newline > 0 && this.#buffer[newline - 1] === 13 ? newline - 1 : newline;
      const line = this.#buffer.toString('utf8', 0, end);
      this.#buffer = newline + 1 < this.#buffer.length ? this.#buffer.subarray(newline + 1) : undefined;
      this.#receive(line);
    }
  };

  #receive(line: string): void {
    if (line.charCodeAt(0) !== 0x7b && line.trim() === '') return; // a line starting with '{' is not blank
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#refuse(parseErrorResponse(), line);
      return;
    }
    // The common case first (what `checkJsonRpcMessage` checks first too), remembered for the layers below.
    const kind = plainMessageKind(value);
    let message = value as JSONRPCMessage;
    if (kind === undefined) {
      const checked = checkJsonRpcMessage(value);
      if ('refusal' in checked) {
        this.#refuse(checked.refusal, line);
        return;
      }
      message = checked.message;
    }
    if ('method' in message) {
      if ('id' in message) this.#pending.set(message.id, message.method);
      else if (message.method === 'notifications/cancelled') {
        const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
        if (cancelled !== undefined) this.#pending.delete(cancelled); // a cancelled request gets no answer
        if (this.#draining) setImmediate(this.#closeWhenAnswered);
      }
    }
    try {
      if (kind === 'request') deliverCheckedRequest(message, this);
      else this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  readonly #onStdinError = (error: Error): void => this.onerror?.(error);

  readonly #onStdoutError = (error: Error): void => {
    this.#stdout.off('drain', this.#onDrain);
    for (const { reject } of this.#drainWaiters.splice(0)) reject(error);
    if (this.#closed) return;
    this.onerror?.(error);
    void this.close();
  };

  /**
   * stdin ended: no more requests will come, but those already read are still answered (the
   * client may be reading stdout still), for at most the grace period; then the transport closes.
   */
  readonly #onStdinClose = (): void => {
    if (this.#closed || this.#draining) return;
    this.#stdin.off('data', this.#onData);
    this.#draining = setTimeout(() => void this.close(), this.#graceMs);
    this.#closeWhenAnswered();
  };

  readonly #closeWhenAnswered = (): void => {
    if (this.#closed) return;
    for (const method of this.#pending.values()) if (!LONG_LIVED_METHODS.has(method)) return;
    void this.close();
  };
}
