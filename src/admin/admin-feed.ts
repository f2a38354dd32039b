import type { Response } from 'express';

/** Most calls one `toolCallsFinished` event carries; the rest are counted in `dropped`. */
const MAX_BATCH = 200;
/** How often finished calls are sent (ms): one event per interval, not one per call. */
const BATCH_MS = 250;

/** One finished call as the feed sends it. */
export interface FinishedCall {
  readonly name: string;
  readonly durationMs: number;
  readonly isError: boolean;
  /** The call was cancelled, timed out, lost its connection or was stopped (then `isError` is false). */
  readonly aborted?: true;
  readonly at: number;
  readonly sessionId?: string;
}

/**
 * The Server-Sent Events fan-out of the admin API (`GET /api/events`): each subscriber is an
 * open response; `send` writes one `event:`/`data:` frame to all of them. Finished tool calls
 * are batched (every 250 ms, at most 200 per event) so a busy server does not flood browsers;
 * nothing is buffered while nobody listens. A comment line every `keepAliveMs` keeps proxies
 * from closing idle streams.
 */
export class AdminFeed {
  readonly #clients = new Set<Response>();
  #batch: FinishedCall[] = [];
  #dropped = 0;
  #flushTimer?: NodeJS.Timeout;
  #keepAlive?: NodeJS.Timeout;
  #nextId = 1;

  constructor(private readonly keepAliveMs: number) {}

  /** True when at least one stream is open. */
  get listening(): boolean {
    return this.#clients.size > 0;
  }

  /** Turns `res` into an event stream until the client goes away or {@link close}. */
  subscribe(res: Response, hello: unknown): void {
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    this.#clients.add(res);
    res.on('close', () => {
      this.#clients.delete(res);
      if (this.#clients.size === 0) this.#stopTimers();
    });
    this.#write(res, 'hello', hello);
    if (!this.#keepAlive && this.keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => {
        for (const client of this.#clients) client.write(': keep-alive\n\n');
      }, this.keepAliveMs);
      this.#keepAlive.unref();
    }
  }

  /** Sends one event to every open stream. */
  send(event: string, data: unknown): void {
    if (this.#clients.size === 0) return;
    for (const client of this.#clients) this.#write(client, event, data);
  }

  /** Queues a finished call for the next `toolCallsFinished` batch (dropped when nobody listens). */
  callFinished(call: FinishedCall): void {
    if (this.#clients.size === 0) return;
    if (this.#batch.length < MAX_BATCH) this.#batch.push(call);
    else this.#dropped += 1;
    if (!this.#flushTimer) {
      this.#flushTimer = setTimeout(() => this.#flush(), BATCH_MS);
      this.#flushTimer.unref();
    }
  }

  /** Ends every stream and stops the timers (the server stopped). */
  close(): void {
    this.#stopTimers();
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }

  #flush(): void {
    this.#flushTimer = undefined;
    const calls = this.#batch;
    const dropped = this.#dropped;
    this.#batch = [];
    this.#dropped = 0;
    if (calls.length > 0) this.send('toolCallsFinished', { calls, dropped });
  }

  #stopTimers(): void {
    clearTimeout(this.#flushTimer);
    clearInterval(this.#keepAlive);
    this.#flushTimer = undefined;
    this.#keepAlive = undefined;
    this.#batch = [];
    this.#dropped = 0;
  }

  #write(res: Response, event: string, data: unknown): void {
    res.write(`id: ${this.#nextId++}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}
