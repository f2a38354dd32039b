// OnDemandResponse (sdk-internals/on-demand-response.ts): a plain JSON answer whose body is made on first read, the
// same bytes through every body member.
import { describe, expect, it } from 'vitest';
import { onDemandResponse } from '../../src/mcp/sdk-internals/on-demand-response.js';

const init = { status: 200, headers: { 'Content-Type': 'application/json' } };
const text = '{"jsonrpc":"2.0","id":1,"result":{"a":"ü"}}';

/** A response over `text`'s bytes, counting how often its bytes were made. */
function made() {
  const counter = { calls: 0 };
  const response = onDemandResponse(() => {
    counter.calls += 1;
    return new TextEncoder().encode(text);
  }, init);
  return { response, counter };
}

describe('onDemandResponse', () => {
  it('has the status and headers of a plain response, and makes no body until read', () => {
    const { response, counter } = made();
    expect(response).toBeInstanceOf(Response);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.bodyUsed).toBe(false);
    expect(counter.calls).toBe(0);
  });

  it.each(['text', 'json', 'arrayBuffer', 'bytes', 'blob'] as const)('reads its bytes with %s()', async (how) => {
    const { response, counter } = made();
    const read: unknown = await (response as unknown as Record<string, () => Promise<unknown>>)[how]!();
    const bytes =
      read instanceof Blob
        ? await read.text()
        : read instanceof ArrayBuffer || read instanceof Uint8Array
          ? Buffer.from(read as Uint8Array).toString()
          : read;
    expect(how === 'json' ? JSON.stringify(bytes) : bytes).toBe(text);
    expect(response.bodyUsed).toBe(true);
    expect(counter.calls).toBe(1);
  });

  it('reads its bytes through body and clone(), made once', async () => {
    const { response, counter } = made();
    expect(await response.clone().text()).toBe(text);
    expect(await new Response(response.body).text()).toBe(text);
    expect(response.bodyUsed).toBe(true);
    expect(counter.calls).toBe(1);
  });
});
