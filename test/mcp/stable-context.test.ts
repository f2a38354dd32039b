// sdk-internals/stable-context.ts: the handler context a view builds has exactly the SDK's keys, in
// the SDK's order, with the SDK's values, whether or not the slots are handed in first.
import { Server, type BaseContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { contextSlotKeys, withContextSlots } from '../../src/mcp/sdk-internals/stable-context.js';

type Build = (ctx: BaseContext, info?: unknown) => { mcpReq: Record<string, unknown> } & Record<string, unknown>;

const signal = new AbortController().signal;

function sampleContext(): BaseContext {
  return {
    sessionId: 'session-1',
    mcpReq: {
      id: 7,
      method: 'tools/call',
      _meta: { progressToken: 3 },
      requestState: () => undefined,
      signal,
      send: async () => ({}),
      notify: async () => {},
    },
    http: undefined,
  } as unknown as BaseContext;
}

/** The shape of a context: its keys (nested for mcpReq) and, per key, the value or its type for functions. */
function shapeOf(ctx: { mcpReq: Record<string, unknown> } & Record<string, unknown>) {
  const describe = (value: unknown) => (typeof value === 'function' ? 'function' : value);
  return {
    keys: Object.keys(ctx),
    mcpReqKeys: Object.keys(ctx.mcpReq),
    values: Object.fromEntries(Object.entries(ctx).filter(([key]) => key !== 'mcpReq')),
    mcpReq: Object.fromEntries(Object.entries(ctx.mcpReq).map(([key, value]) => [key, describe(value)])),
  };
}

describe('stable handler context', () => {
  it('learns the keys the installed SDK appends to mcpReq', () => {
    expect(contextSlotKeys()).toEqual(['log', 'elicitInput', 'requestSampling']);
  });

  it('builds the same context as the SDK, key for key and in order', () => {
    const server = new Server({ name: 't', version: '1' });
    const build = (server as unknown as { buildContext: Build }).buildContext.bind(server);
    const plain = build(sampleContext());
    const slotted = build(withContextSlots(sampleContext()));
    expect(shapeOf(slotted)).toEqual(shapeOf(plain));
    for (const key of ['log', 'elicitInput', 'requestSampling']) expect(typeof slotted.mcpReq[key]).toBe('function');
  });

  it('keeps a key mcpReq already has where it is, and leaves the original context untouched', () => {
    const ctx = sampleContext();
    (ctx.mcpReq as unknown as Record<string, unknown>).log = 'own';
    const slotted = withContextSlots(ctx);
    expect(Object.keys(slotted.mcpReq)).toEqual([...Object.keys(ctx.mcpReq), 'elicitInput', 'requestSampling']);
    expect((slotted.mcpReq as unknown as Record<string, unknown>).log).toBe('own');
    expect(Object.keys(ctx.mcpReq)).not.toContain('elicitInput');
    expect(slotted.mcpReq.signal).toBe(ctx.mcpReq.signal);
  });
});
