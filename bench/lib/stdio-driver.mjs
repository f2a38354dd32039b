// The load generator for stdio: newline-delimited JSON-RPC written to the child's stdin,
// responses matched by id from its stdout (notifications and server requests ignored).
import { bodies } from './http-driver.mjs';

export class StdioDriver {
  /** `era`: `legacy` (the 2025-11-25 handshake, then plain calls) or `modern` (2026-07-28: no handshake, each call carries `_meta`). */
  constructor(child, era = 'legacy') {
    this.child = child;
    this.era = era;
    this.waiting = new Map();
    this.nextId = 1;
    let buffer = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        if (!line) continue;
        const message = JSON.parse(line);
        const waiter = message.id !== undefined && !message.method && this.waiting.get(message.id);
        if (!waiter) continue;
        this.waiting.delete(message.id);
        if (message.error) waiter.reject(new Error(JSON.stringify(message.error)));
        else waiter.resolve(message.result);
      }
    });
  }

  /** Sends a request body built by `build(id)` and resolves with its result. */
  request(build) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.stdin.write(`${build(id)}\n`);
    });
  }

  /** The 2025-11-25 handshake; a 2026-07-28 client has none (each request says its version). */
  async initialize() {
    if (this.era === 'modern') return;
    await this.request(bodies.initialize);
    this.child.stdin.write(`${bodies.initialized()}\n`);
  }

  call() {
    return this.request((id) => (this.era === 'modern' ? bodies.modernCall(id) : bodies.call(id)));
  }
}
