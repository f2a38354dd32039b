// Logging, elicitation and sampling during forwarded calls: a gateway (HttpMcpServer) in front of the
// real @modelcontextprotocol/server-everything (stdio, legacy era) and one of our own servers (HTTP,
// 2026-07-28 era). Clients of both eras (v1 SDK, v2 legacy, v2 2026-07-28) answer the relayed requests; a client without the capability
// makes the upstream get an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { HttpMcpServer, defineTool } from '../../dist/index.js';
import { EVERYTHING, quiet, recordingLogger } from './gateway-clients.js';

type Kind = 'v1' | 'v2-legacy' | 'v2-modern';
/** What the tests use of a client, whichever SDK it comes from. */
type AnyClient = Pick<Client, 'close'> & {
  callTool(
    params: { name: string; arguments: Record<string, unknown>; _meta?: object },
    ...rest: never[]
  ): Promise<unknown>;
};
type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean };

describe('gateway: logging, elicitation and sampling relayed to the calling client', () => {
  let own: HttpMcpServer;
  let gateway: HttpMcpServer;
  const clients = new Map<Kind, { client: AnyClient; logs: string[]; asked: string[] }>();
  let plain: AnyClient;

  const connect = async (kind: Exclude<Kind, 'v1'>, capable: boolean) => {
    const client = new Client(
      { name: `relay-${kind}`, version: '1' },
      {
        versionNegotiation: { mode: kind === 'v2-modern' ? { pin: '2026-07-28' } : 'legacy' },
        ...(capable && { capabilities: { elicitation: { form: {} }, sampling: {} } }),
      },
    );
    const logs: string[] = [];
    const asked: string[] = [];
    client.setNotificationHandler('notifications/message', async (note) => void logs.push(String(note.params.data)));
    if (capable) {
      client.setRequestHandler('elicitation/create', async (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { name: `Ada-${kind}` } };
      });
      client.setRequestHandler('sampling/createMessage', async (request) => {
        const first = request.params.messages[0]?.content as { text?: string };
        asked.push(String(first?.text));
        return { role: 'assistant', content: { type: 'text', text: `sampled for ${kind}` }, model: 'test-model' };
      });
    }
    await client.connect(new HttpV2(new URL(gateway.address.url)));
    return { client: client as AnyClient, logs, asked };
  };
  /** The v1 SDK client (the stand-in for today's desktop clients), with the same answers. */
  const connectV1 = async () => {
    const client = new ClientV1(
      { name: 'relay-v1', version: '1' },
      { capabilities: { elicitation: {}, sampling: {} } },
    );
    const logs: string[] = [];
    const asked: string[] = [];
    client.setNotificationHandler(
      LoggingMessageNotificationSchema,
      async (note) => void logs.push(String(note.params.data)),
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { name: 'Ada-v1' } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      asked.push(String((request.params.messages[0]?.content as { text?: string })?.text));
      return { role: 'assistant', content: { type: 'text', text: 'sampled for v1' }, model: 'test-model' };
    });
    await client.connect(new HttpV1(new URL(gateway.address.url)));
    return { client: client as unknown as AnyClient, logs, asked };
  };
  const call = async (client: AnyClient, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as Result;

  beforeAll(async () => {
    own = new HttpMcpServer({ name: 'own', version: '1.0.0' }, { port: 0, logger: recordingLogger([]) });
    own.registerTool(
      defineTool({
        name: 'chatty',
        execute: async (_args, context) => {
          context.log.info('step one');
          context.log.warn('step two');
          return 'talked';
        },
      }),
    );
    own.registerTool(
      defineTool({
        name: 'ask',
        inputSchema: z.object({}),
        execute: async (_args, context) => {
          const answer = await context.elicit({
            message: 'Your name?',
            requestedSchema: z.object({ name: z.string() }),
          });
          return `hello ${String(answer.content?.name)}`;
        },
      }),
    );
    await own.start();
    gateway = new HttpMcpServer({ name: 'gateway', version: '1.0.0' }, { port: 0, logger: recordingLogger([]) });
    const everything = gateway.addUpstream({
      name: 'everything',
      command: process.execPath,
      args: [EVERYTHING, 'stdio'],
    });
    const ownUpstream = gateway.addUpstream({ name: 'own', url: own.address.url });
    await gateway.start();
    await Promise.all([everything.whenConnected(), ownUpstream.whenConnected()]);
    await quiet(500); // server-everything registers its elicitation and sampling tools after initialize
    clients.set('v1', await connectV1());
    for (const kind of ['v2-legacy', 'v2-modern'] as const) clients.set(kind, await connect(kind, true));
    plain = (await connect('v2-legacy', false)).client;
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([...clients.values()].map(({ client }) => client.close()));
    await plain?.close();
    await gateway?.stop();
    await own?.stop();
  }, 30_000);

  it("an upstream's log messages during a call reach the calling client", async () => {
    for (const [kind, { client, logs }] of clients) {
      // A 2026-07-28 client asks for log messages per request (its `_meta` log level); a legacy one gets them by default.
      const meta = kind === 'v2-modern' ? { 'io.modelcontextprotocol/logLevel': 'info' } : undefined;
      const result = await client.callTool({ name: 'own_chatty', arguments: {}, ...(meta && { _meta: meta }) });
      expect((result as Result).content[0]?.text, kind).toBe('talked');
      expect(logs, kind).toEqual(expect.arrayContaining(['step one', 'step two']));
    }
  });

  it("an upstream's elicitation during a call is answered by the calling client (legacy and 2026-07-28 upstreams)", async () => {
    for (const [kind, { client, asked }] of clients) {
      const fromEverything = await call(client, 'everything_trigger-elicitation-request');
      expect(JSON.stringify(fromEverything.content), kind).toContain(`Ada-${kind}`);
      const fromOwn = await call(client, 'own_ask');
      expect(fromOwn.content[0]?.text, kind).toBe(`hello Ada-${kind}`);
      expect(asked, kind).toContain('Your name?');
    }
  });

  it("an upstream's sampling request during a call is answered by the calling client", async () => {
    for (const [kind, { client, asked }] of clients) {
      const result = await call(client, 'everything_trigger-sampling-request', {
        prompt: `poem ${kind}`,
        maxTokens: 20,
      });
      expect(JSON.stringify(result.content), kind).toContain(`sampled for ${kind}`);
      expect(
        asked.some((text) => text.includes(`poem ${kind}`)),
        kind,
      ).toBe(true);
    }
  });

  it('a calling client without the capability: the upstream gets an error, the caller a clear result', async () => {
    const result = await call(plain, 'own_ask').catch((error: Error) => ({
      isError: true,
      content: [{ type: 'text', text: error.message }],
    }));
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/does not support it/);
    const sampled = await call(plain, 'everything_trigger-sampling-request', { prompt: 'x', maxTokens: 5 }).catch(
      (error: Error) => ({ isError: true, content: [{ type: 'text', text: error.message }] }),
    );
    expect(JSON.stringify(sampled)).toMatch(/not relayed: the calling client does not support it/);
  });
});
