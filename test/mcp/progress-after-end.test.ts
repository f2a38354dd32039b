// MCP 2025-11-25 "Progress": progress notifications MUST stop after completion. A tool that ignores
// its aborted signal (timed out, cancelled) still runs; its later reportProgress must not reach the
// client, on the stdio tools/call dispatch and on the SDK's path alike.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setStdioToolsCallDispatch } from '../../src/mcp/sdk-internals/stdio-tools-call.js';
import { defineTool } from '../../src/registry/tool.js';
import { RawStdio, type RpcMessage } from '../support/raw-stdio.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reports progress once at once, and once more 40 ms later, whatever happened to the call meanwhile. */
function lingering(timeoutMs?: number) {
  return defineTool({
    name: 'linger',
    inputSchema: z.object({}),
    ...(timeoutMs !== undefined && { timeoutMs }),
    execute: async (_args, context) => {
      await context.reportProgress({ progress: 1 });
      await delay(40);
      await context.reportProgress({ progress: 2 });
      return 'late';
    },
  });
}

const progressOf = (received: RpcMessage[]) =>
  received
    .filter((message) => message.method === 'notifications/progress')
    .map((message) => (message.params as { progress: number }).progress);

describe('no progress after a call ended', () => {
  let raw: RawStdio | undefined;
  afterEach(async () => {
    setStdioToolsCallDispatch(true);
    await raw?.close();
    raw = undefined;
  });

  for (const dispatch of [true, false]) {
    it(`after a timeout answered the call (stdio dispatch ${dispatch ? 'on' : 'off'})`, async () => {
      setStdioToolsCallDispatch(dispatch);
      raw = new RawStdio();
      raw.server.registerTool(lingering(10));
      await raw.open('legacy');
      const answer = await raw.request(1, 'tools/call', {
        name: 'linger',
        arguments: {},
        _meta: { progressToken: 't' },
      });
      expect(answer.result?.isError).toBe(true);
      await delay(80);
      await raw.request(2, 'ping');
      expect(progressOf(raw.received)).toEqual([1]);
    });

    it(`after the client cancelled the call (stdio dispatch ${dispatch ? 'on' : 'off'})`, async () => {
      setStdioToolsCallDispatch(dispatch);
      raw = new RawStdio();
      raw.server.registerTool(lingering());
      await raw.open('legacy');
      raw.send({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'linger', arguments: {}, _meta: { progressToken: 't' } },
      });
      await raw.next((message) => message.method === 'notifications/progress');
      raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
      await delay(80);
      await raw.request(2, 'ping');
      expect(progressOf(raw.received)).toEqual([]);
      expect(raw.received.some((message) => message.id === 1)).toBe(false);
    });
  }
});
