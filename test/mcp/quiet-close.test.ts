// #30: a view that awaits no response when it closes builds the SDK's ConnectionClosed error without
// a stack trace (sdk-internals/quiet-close.ts). What must not change: a request the view still awaits
// gets the SDK's error with its stack; a request it is still serving is aborted with the SDK's error;
// `onclose` runs once, with the process's stack-trace limit; the limit is back after the close.
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { ViewServer } from '../../src/mcp/sdk-internals/view-server.js';

async function connected(server: ViewServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: 'c', version: '1.0.0' },
    { versionNegotiation: { mode: 'legacy' }, capabilities: { roots: {} } },
  );
  await client.connect(clientSide);
  return client;
}

describe('a view closing with nothing pending (quiet close)', () => {
  it('calls onclose once, with the stack-trace limit in force, and restores the limit', async () => {
    const server = new ViewServer({ name: 's', version: '1.0.0' }, { capabilities: { tools: {} } });
    const client = await connected(server);
    const limit = Error.stackTraceLimit;
    const seen: number[] = [];
    server.onclose = () => seen.push(Error.stackTraceLimit);
    await client.close();
    expect(seen).toEqual([limit]);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it('a request the view still awaits is rejected with the SDK error, stack included', async () => {
    const server = new ViewServer({ name: 's', version: '1.0.0' }, { capabilities: { tools: {} } });
    const client = await connected(server);
    // The client never answers roots/list: the view's request is pending when the connection closes.
    client.setRequestHandler('roots/list', () => new Promise(() => {}));
    const pending = server.listRoots().catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    let closes = 0;
    server.onclose = () => (closes += 1);
    await client.close();
    const error = await pending;
    expect(error).toBeInstanceOf(SdkError);
    expect((error as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
    expect((error as Error).stack?.split('\n').length).toBeGreaterThan(1);
    expect(closes).toBe(1);
  });

  it('a request the view is still serving is aborted with the SDK error', async () => {
    const limitBefore = Error.stackTraceLimit;
    const server = new ViewServer({ name: 's', version: '1.0.0' }, { capabilities: { tools: {} } });
    let reason: unknown;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    server.setRequestHandler('tools/list', (_request, ctx) => {
      started();
      return new Promise((_resolve, reject) => {
        ctx.mcpReq.signal.addEventListener('abort', () => {
          reason = ctx.mcpReq.signal.reason;
          reject(reason);
        });
      });
    });
    const client = await connected(server);
    void client.listTools().catch(() => undefined);
    await running;
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reason).toBeInstanceOf(SdkError);
    expect((reason as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
    // Nothing awaited a response: the error was built without frames (the shortcut took effect).
    expect((reason as Error).stack?.split('\n')).toHaveLength(1);
    expect(Error.stackTraceLimit).toBe(limitBefore);
  });
});
