// #17 items 4, 5, 6, 8, 9, 13: the same hostile inputs on stdio and HTTP, legacy and 2026-07-28.
import { afterEach, describe, expect, it } from 'vitest';
import { openTarget, TARGETS, type Answer, type Target } from './targets.js';

let target: Target | undefined;
afterEach(async () => {
  await target?.close();
  target = undefined;
});

/** A JSON-RPC error with `code`, a short message matching `pattern`, and no schema-library dump. */
function expectError(answer: Answer, code: number, pattern: RegExp): void {
  expect(answer.message?.error, JSON.stringify(answer)).toBeDefined();
  const { error } = answer.message!;
  expect(error!.code).toBe(code);
  expect(error!.message).toMatch(pattern);
  expect(error!.message.length).toBeLessThan(400);
  expect(error!.message).not.toMatch(/"code":\s*"invalid_|\[\s*\{/);
}

describe.each(TARGETS)('protocol errors on %s', (name) => {
  it('answers malformed params -32602 naming the field, on every method', async () => {
    target = await openTarget(name);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['tools/call', { name: 5 }, /tools\/call: name/],
      ['resources/read', { uri: 5 }, /resources\/read: uri/],
      ['prompts/get', { name: 5 }, /prompts\/get: name/],
      ['completion/complete', { ref: { type: 'ref/prompt' }, argument: { name: 'a', value: '' } }, /ref/],
      ['tools/list', { cursor: 5 }, /cursor/],
      ['prompts/list', { cursor: {} }, /cursor/],
    ];
    if (!target.modern) {
      cases.push(['logging/setLevel', { level: 'not-a-level' }, /logging\/setLevel: level/]);
      cases.push(['resources/subscribe', { uri: 5 }, /resources\/subscribe: uri/]);
    }
    let id = 100;
    for (const [method, params, pattern] of cases) {
      expectError(await target.request(++id, method, params), -32602, pattern);
    }
    expect(
      (await target.request(++id, 'tools/call', { name: 'echo', arguments: { text: 'still here' } })).message,
    ).toMatchObject({ result: { content: [{ text: 'still here' }] } });
  });

  it('checks the cursor of every paginated method the same way', async () => {
    target = await openTarget(name);
    let id = 200;
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      expectError(await target.request(++id, method, { cursor: 'bogus' }), -32602, /Invalid cursor/);
      const page = await target.request(++id, method, {});
      expect(page.message?.result, method).toBeDefined();
      expect(page.message?.result?.nextCursor).toBeUndefined();
    }
  });

  it('answers valid JSON that is not JSON-RPC -32600, with the id when it can be read', async () => {
    target = await openTarget(name);
    const meta = target.modern ? { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } : {};
    const cases: Array<[unknown, string | number | null, RegExp]> = [
      [{ jsonrpc: '2.0', id: 1.5, method: 'tools/list' }, null, /"id"/],
      [{ jsonrpc: '2.0', id: 1e308, method: 'tools/list' }, null, /"id"/],
      [{ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: null } }, 7, /_meta/],
      [
        {
          jsonrpc: '2.0',
          id: 8,
          method: 'tools/call',
          params: { name: 'echo', _meta: { ...meta, progressToken: {} } },
        },
        8,
        /progressToken/,
      ],
      [{ jsonrpc: '2.0', id: 'x', method: 5 }, 'x', /method/],
      [[{ jsonrpc: '2.0', id: 9, method: 'tools/list' }], null, /batches are not supported/],
      [42, null, /JSON object/],
    ];
    for (const [body, id, pattern] of cases) {
      const answer = await target.raw(body, id);
      expectError(answer, -32600, pattern);
      expect(answer.message!.id).toBe(id);
      if (answer.status !== undefined) expect(answer.status).toBe(400);
    }
    const parse = await target.raw('{"jsonrpc": "2.0", "id": 3, "method": ', null);
    expectError(parse, -32700, /Parse error/);
    expect(parse.message!.id).toBeNull();
  });

  it('sends lone surrogates as U+FFFD, in results and in errors', async () => {
    target = await openTarget(name);
    const echoed = await target.request(1, 'tools/call', { name: 'echo', arguments: { text: 'a\ud800b\udc00c' } });
    expect(echoed.message?.result).toMatchObject({ content: [{ type: 'text', text: 'a\ufffdb\ufffdc' }] });
    for (const id of [3, 4]) {
      // the registry's cached list, twice: the fixed copy must not replace the cached one
      const listed = (await target.request(id, 'tools/list')).message?.result?.tools as Array<{ description: string }>;
      expect(listed.map((tool) => tool.description)).toContain(
        'The client the tool sees (a lone \ufffd surrogate in here goes out as U+FFFD).',
      );
    }
    if (name === 'http modern') return; // a lone surrogate cannot travel in the Mcp-Name header this needs
    const unknown = await target.request(2, 'prompts/get', { name: 'nope\ud83d' });
    expect(unknown.message?.error?.message).toContain('nope\ufffd');
    expect(unknown.message?.error?.message).not.toContain('\ud83d');
  });

  it('resolves equivalent URIs (RFC 3986 section 6.2.2) to the same resource and template', async () => {
    target = await openTarget(name);
    for (const uri of ['memo://note/%7Euser', 'memo://note/%7euser', 'MEMO://note/~user']) {
      const read = await target.request(1, 'resources/read', { uri });
      expect(read.message?.result, uri).toMatchObject({ contents: [{ text: 'note text' }] });
    }
    const item = await target.request(2, 'resources/read', { uri: 'memo://item/%61lpha' });
    expect(item.message?.result).toMatchObject({ contents: [{ text: 'item alpha' }] });
    const completed = await target.request(3, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'MEMO://item/{id}' },
      argument: { name: 'id', value: 'al' },
    });
    expect(completed.message?.result).toMatchObject({ completion: { values: ['alpha'] } });
  });

  // Only the handshake eras have an initialize to repeat; 2026-07-28 targets define no such test.
  if (!name.endsWith('modern')) {
    it('refuses a second initialize and keeps the first client identity', async () => {
      target = await openTarget(name);
      const again = await target.request(1, 'initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'intruder', version: '6.6.6' },
      });
      expect(again.message?.error?.code).toBe(-32600);
      const who = await target.request(2, 'tools/call', { name: 'client-info', arguments: {} });
      const text = (who.message?.result as { content: Array<{ text: string }> }).content[0]!.text;
      expect(JSON.parse(text)).toMatchObject({ name: 'raw' });
    });
  }
});
