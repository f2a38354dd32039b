import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { POST_HEADERS, startServer } from './http-helpers.js';

/**
 * POSTs `size` bytes in 256 KiB chunks, 3 ms apart (so the client is still writing when the
 * server answers; with the old early close this failed with EPIPE about one try in three),
 * declared (`Content-Length`) or chunked; resolves with the status and body the client read.
 */
function postLarge(url: string, size: number, declared: boolean): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const request = http.request(url, {
      method: 'POST',
      headers: { ...POST_HEADERS, ...(declared ? { 'Content-Length': String(size) } : {}) },
      timeout: 15_000,
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => (body += text));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.on('timeout', () => request.destroy(new Error('client timeout')));
    let sent = 0;
    const write = () => {
      if (sent >= size || request.destroyed) return void request.end();
      const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
      sent += part.length;
      request.write(part);
      setTimeout(write, 3);
    };
    write();
  });
}

/** #17 item 11: the client of an oversized POST reads the 413, it does not get EPIPE/ECONNRESET. */
describe('oversized POST bodies', () => {
  let server: HttpMcpServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.stop());

  it.each([
    ['declared (Content-Length)', true],
    ['chunked', false],
  ])('a 6 MiB body, %s, is answered 413 every time (5 tries)', async (_name, declared) => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const { status, body } = await postLarge(server.address.url, 6 * 1024 * 1024, declared);
      expect(status).toBe(413);
      expect(JSON.parse(body)).toMatchObject({
        jsonrpc: '2.0',
        error: { message: expect.stringMatching(/Too Large/) },
      });
    }
    const health = await fetch(new URL('/health', server.address.url));
    expect(health.status).toBe(200);
  });
});
