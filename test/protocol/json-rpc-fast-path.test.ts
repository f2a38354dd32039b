// The hand-written JSON-RPC shape checks the hot paths use instead of the SDK's zod schemas must
// never say yes where the schemas say no, and must give the same value: checked on a table of
// edge cases and on seeded random messages built from valid and invalid parts.
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  parseJSONRPCMessage,
  RELATED_TASK_META_KEY,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { deliverCheckedRequest, isPlainResultResponse, plainMessageKind } from '../../src/mcp/wire/json-rpc-shape.js';

/** Asserts what the fast checks say about `value` agrees with the SDK's schemas. */
function agreesWithSchemas(value: unknown): void {
  const kind = plainMessageKind(value);
  const label = JSON.stringify(value);
  if (kind === 'request') {
    expect(isJSONRPCRequest(value), label).toBe(true);
    expect(isJSONRPCResultResponse(value) || isJSONRPCErrorResponse(value), label).toBe(false);
    expect(parseJSONRPCMessage(value), label).toStrictEqual(value);
  } else if (kind === 'notification') {
    expect(isJSONRPCNotification(value), label).toBe(true);
    expect(isJSONRPCRequest(value) || isJSONRPCResultResponse(value) || isJSONRPCErrorResponse(value), label).toBe(
      false,
    );
    expect(parseJSONRPCMessage(value), label).toStrictEqual(value);
  }
  if (isPlainResultResponse(value)) expect(isJSONRPCResultResponse(value), label).toBe(true);
}

const common = {
  call: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
  list: { jsonrpc: '2.0', id: 'a-1', method: 'tools/list' },
  progress: { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 'p' } } },
  initialized: { jsonrpc: '2.0', method: 'notifications/initialized' },
  cancelled: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'x' } },
};

describe('plainMessageKind and isPlainResultResponse', () => {
  it('take the messages clients send most on the fast path', () => {
    expect(plainMessageKind(common.call)).toBe('request');
    expect(plainMessageKind(common.list)).toBe('request');
    expect(plainMessageKind(common.progress)).toBe('request');
    expect(plainMessageKind(common.initialized)).toBe('notification');
    expect(plainMessageKind(common.cancelled)).toBe('notification');
    expect(isPlainResultResponse({ jsonrpc: '2.0', id: 7, result: { content: [] } })).toBe(true);
    expect(isPlainResultResponse({ jsonrpc: '2.0', id: 7, result: { _meta: { a: 1 } } })).toBe(true);
    for (const value of Object.values(common)) agreesWithSchemas(value);
  });

  it.each([
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'm' }],
    ['an id past 2^53', { jsonrpc: '2.0', id: 2 ** 53, method: 'm' }],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'm' }],
    ['an extra field', { jsonrpc: '2.0', id: 1, method: 'm', extra: 1 }],
    ['jsonrpc 1.0', { jsonrpc: '1.0', id: 1, method: 'm' }],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'm', params: [] }],
    ['null params', { jsonrpc: '2.0', id: 1, method: 'm', params: null }],
    ['null _meta', { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: null } }],
    ['an object progress token', { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: { progressToken: {} } } }],
    [
      'a related task (its schema strips fields)',
      { jsonrpc: '2.0', id: 1, method: 'm', params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: 't', x: 1 } } } },
    ],
    ['a numeric method', { jsonrpc: '2.0', id: 1, method: 5 }],
    ['method and result', { jsonrpc: '2.0', id: 1, method: 'm', result: {} }],
    ['a "__proto__" field', JSON.parse('{"jsonrpc":"2.0","id":1,"method":"m","__proto__":{}}')],
    [
      'a "__proto__" param (the schema drops it)',
      JSON.parse('{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"__proto__":{"a":2}}}'),
    ],
    ['a "__proto__" in _meta', JSON.parse('{"jsonrpc":"2.0","method":"m","params":{"_meta":{"__proto__":{}}}}')],
  ])('leave %s to the SDK', (_label, value) => {
    expect(plainMessageKind(value)).toBeUndefined();
    agreesWithSchemas(value);
  });

  it.each([
    ['an error response', { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm' } }],
    ['a result with an extra field', { jsonrpc: '2.0', id: 1, result: {}, extra: 1 }],
    ['a null result', { jsonrpc: '2.0', id: 1, result: null }],
    ['an array result', { jsonrpc: '2.0', id: 1, result: [] }],
    ['a string _meta', { jsonrpc: '2.0', id: 1, result: { _meta: 'x' } }],
    ['a fractional id', { jsonrpc: '2.0', id: 0.5, result: {} }],
  ])('isPlainResultResponse leaves %s to the SDK', (_label, value) => {
    expect(isPlainResultResponse(value)).toBe(false);
  });

  it('agree with the schemas on seeded random messages', () => {
    let seed = Number(process.env.FUZZ_SEED ?? 20261201);
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(options: T[]): T => options[Math.floor(random() * options.length)]!;
    const absent = Symbol('absent');
    const ids = [absent, 1, 0, -3, 2 ** 53 - 1, 2 ** 53, 1.5, 'x', '', null, true, {}, []];
    const metas = [
      absent,
      {},
      null,
      'm',
      { progressToken: 1 },
      { progressToken: 1.2 },
      { progressToken: 'p', z: 1 },
      { progressToken: null },
      { [RELATED_TASK_META_KEY]: { taskId: 't' } },
      { [RELATED_TASK_META_KEY]: { taskId: 't', x: 1 } },
    ];
    const params = () => pick([absent, null, [], 'p', {}, { a: [1, { b: 2 }] }, { _meta: pick(metas), name: 'n' }]);
    const results = [absent, {}, null, [], { content: [] }, { _meta: pick(metas) }];
    for (let i = 0; i < 3_000; i += 1) {
      const message: Record<string, unknown> = {};
      const set = (key: string, value: unknown) => value !== absent && (message[key] = value);
      set('jsonrpc', pick(['2.0', '2.0', '2.0', '1.0', 2, absent]));
      set('id', pick(ids));
      set('method', pick(['tools/call', 'notifications/x', '', 5, absent]));
      set('params', params());
      if (random() < 0.25) set('result', pick(results));
      if (random() < 0.1) set('error', { code: 1, message: 'm' });
      if (random() < 0.05) set('extra', 1);
      agreesWithSchemas(JSON.parse(JSON.stringify(message)));
    }
  });
});

describe('deliverCheckedRequest (the checked request remembered during its delivery)', () => {
  it('answers request for the delivered message only while it is delivered', () => {
    const message: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} };
    const seen: unknown[] = [];
    deliverCheckedRequest(message, {
      onmessage: (request) => {
        seen.push(plainMessageKind(request), plainMessageKind({ ...request, extra: 1 }));
      },
    });
    expect(seen).toEqual(['request', undefined]);
    message.extra = 1; // checked again afterwards
    expect(plainMessageKind(message)).toBeUndefined();
  });

  it('forgets it when the delivery throws', () => {
    const message: Record<string, unknown> = { jsonrpc: '2.0', id: 2, method: 'x' };
    expect(() =>
      deliverCheckedRequest(message, {
        onmessage: () => {
          throw new Error('boom');
        },
      }),
    ).toThrow('boom');
    message.id = 1.5;
    expect(plainMessageKind(message)).toBeUndefined();
  });
});
