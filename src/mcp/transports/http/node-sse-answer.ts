import type { ServerResponse } from 'node:http';

import type { SseSink } from '../../sdk-internals/native-session-post.js';

const closedError = () => new TypeError('Invalid state: Controller is already closed');

/**
 * A POST's SSE answer written straight to the Node response, standing in for the web stream the
 * SDK transport would return and `@hono/node-server` would read back. The framing is hono's: an
 * answer of one chunk (one event) complete before the event loop turns (`setImmediate`) is sent
 * with a `content-length`; an answer of more chunks gets chunked encoding, one chunk per event
 * part; an answer not complete by then gets its headers at once and each chunk as it is written. Headers are written as hono writes the SDK's: lower-case, in the
 * order `Headers` iterates them, `content-length` last.
 *
 * Like a closed web stream it throws on `enqueue`/`close` after `close`; a client that goes away
 * before the end cancels it (`onCancel`), as hono cancels the stream's reader.
 */
export class NodeSseAnswer implements SseSink {
  #held: Uint8Array[] | undefined = [];
  #closed = false;
  #discarded = false;
  #immediate: NodeJS.Immediate | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly headers: Record<string, string>,
    onCancel: () => void,
  ) {
    this.#immediate = setImmediate(() => this.#startStreaming());
    res.once('close', () => {
      if (res.writableFinished || this.#closed || this.#discarded) return;
      this.#closed = true;
      this.#stopWaiting();
      onCancel();
    });
  }

  enqueue(chunk: Uint8Array): void {
    if (this.#discarded) return;
    if (this.#closed) throw closedError();
    if (this.#held) this.#held.push(chunk);
    else this.res.write(chunk);
  }

  close(): void {
    if (this.#closed) throw closedError();
    this.#closed = true;
    if (this.#discarded) return;
    const held = this.#held;
    if (!held) {
      this.res.end();
      return;
    }
    this.#stopWaiting();
    // hono reads at most two chunks before it decides: `content-length` only for an answer of one chunk (or none).
    if (held.length <= 1) this.headers['content-length'] = String(held[0]?.byteLength ?? 0);
    this.res.writeHead(200, this.headers);
    for (const chunk of held) this.res.write(chunk);
    this.res.end();
  }

  discard(): void {
    this.#discarded = true;
    this.#stopWaiting();
  }

  /** Not complete when the event loop turned: headers now, then every chunk as it comes. */
  #startStreaming(): void {
    this.#immediate = undefined;
    const held = this.#held;
    if (!held || this.#closed) return;
    this.#held = undefined;
    this.res.writeHead(200, this.headers);
    if (held.length === 0) this.res.flushHeaders();
    for (const chunk of held) this.res.write(chunk);
  }

  #stopWaiting(): void {
    this.#held = undefined;
    if (this.#immediate) clearImmediate(this.#immediate);
    this.#immediate = undefined;
  }
}
