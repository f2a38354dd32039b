// URL-mode elicitation (MCP 2025-11-25 "URL mode elicitation"): a local tool's context.elicitUrl() on
// both eras, and a gateway relaying it from real upstreams: @modelcontextprotocol/server-everything
// (stdio, handshake era: its trigger-url-elicitation tool, request and -32042 error paths), one of
// our own servers (HTTP, 2026-07-28: an input_required round) and a v1-SDK stdio server that sends
// notifications/elicitation/complete.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { defineTool } from '../../dist/index.js';
import { startGateway, until, type StartedGateway } from './gateway-clients.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/url-elicitation-upstream.mjs', import.meta.url));
type Era = 'legacy' | 'modern';
type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean };
type Asked = { mode?: string; url?: string; message: string; elicitationId?: string };

/** A tool (local, or on the upstream) that sends the user to a URL and reports the answer. */
const signIn = () =>
  defineTool({
    name: 'sign_in',
    execute: async (_args, context) => {
      const { action } = await context.elicitUrl({
        message: 'Sign in',
        url: 'https://auth.example/start',
        elicitationId: 'local-1',
      });
      await context.completeUrlElicitation('local-1');
      return `signed:${action}`;
    },
  });

describe('URL-mode elicitation: local tools and relayed from upstreams', () => {
  let started: StartedGateway;
  let gateway: StartedGateway['gateway'];
  const clients: Client[] = [];

  /** A client of `era` over HTTP; with `url` false it declares form elicitation only. */
  const connect = async (era: Era, url = true) => {
    const client = new Client(
      { name: `url-${era}`, version: '1' },
      {
        versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
        capabilities: { elicitation: { form: {}, ...(url && { url: {} }) } },
      },
    );
    const asked: Asked[] = [];
    const completed: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as Asked);
      return { action: 'accept' };
    });
    client.setNotificationHandler('notifications/elicitation/complete', async (note) => {
      completed.push(note.params.elicitationId);
    });
    await client.connect(new HttpV2(new URL(gateway.address.url)));
    clients.push(client);
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args }, { timeout: 20_000 })) as Result;
    return { client, asked, completed, call };
  };
  const text = (result: Result) => result.content.map((item) => item.text ?? '').join('\n');

  beforeAll(async () => {
    const more = [{ name: 'fixture', command: process.execPath, args: [FIXTURE] }];
    started = await startGateway((own) => own.registerTool(signIn()), { more });
    gateway = started.gateway;
    gateway.registerTool(signIn());
    gateway.registerTool(
      defineTool({
        name: 'needs_url',
        execute: () => {
          const elicitation = {
            mode: 'url' as const,
            url: 'https://auth.example/pre',
            message: 'First',
            elicitationId: 'pre-1',
          };
          throw new UrlElicitationRequiredError([elicitation], 'Sign in first.');
        },
      }),
    );
  }, 30_000);

  afterAll(() => started?.stop(clients));

  it.each(['legacy', 'modern'] as const)('a local tool sends a %s client to a URL', async (era) => {
    const { asked, completed, call } = await connect(era);
    expect(text(await call('sign_in'))).toBe('signed:accept');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ mode: 'url', url: 'https://auth.example/start', message: 'Sign in' });
    if (era === 'legacy') {
      expect(asked[0]!.elicitationId).toBe('local-1');
      await until(() => completed.length === 1, 'the completion notice');
      expect(completed).toEqual(['local-1']);
    } else {
      expect(completed).toEqual([]); // 2026-07-28 has no completion notice: the round was the answer
    }
  });

  it('a client without elicitation.url: the local tool is told (isError on the handshake era, -32021 on 2026-07-28)', async () => {
    const legacy = await connect('legacy', false);
    const result = await legacy.call('sign_in');
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('"elicitation.url"');
    const modern = await connect('modern', false);
    await expect(modern.call('sign_in')).rejects.toMatchObject({ code: -32021 });
    expect([...legacy.asked, ...modern.asked]).toEqual([]);
  });

  it('a tool throwing UrlElicitationRequiredError answers -32042 with its elicitations', async () => {
    const { call } = await connect('legacy');
    await expect(call('needs_url')).rejects.toMatchObject({
      code: -32042,
      data: { elicitations: [{ mode: 'url', url: 'https://auth.example/pre', elicitationId: 'pre-1' }] },
    });
  });

  it.each(['legacy', 'modern'] as const)(
    'relays server-everything and our own 2026-07-28 server asking a %s caller for a URL',
    async (era) => {
      const { asked, call } = await connect(era);
      const url = 'https://example.com/consent';
      const everything = await call('everything_trigger-url-elicitation', { url, message: 'Consent' });
      expect(everything.isError).toBeFalsy();
      expect(text(everything)).toContain('User completed the URL elicitation flow');
      expect(asked[0]).toMatchObject({ mode: 'url', url, message: 'Consent' });
      expect(text(await call('own_sign_in'))).toBe('signed:accept');
      expect(asked.at(-1)).toMatchObject({ mode: 'url', url: 'https://auth.example/start', message: 'Sign in' });
    },
  );

  it("relays an upstream's notifications/elicitation/complete to the client it sent to the URL", async () => {
    const { asked, completed, call } = await connect('legacy');
    expect(text(await call('fixture_authorize'))).toBe('upstream:accept');
    expect(asked[0]).toMatchObject({ mode: 'url', elicitationId: 'up-1', url: 'https://auth.example/upstream' });
    await until(() => completed.includes('up-1'), 'the relayed completion notice');
  });

  it("passes an upstream's -32042 on to a handshake-era caller with its data", async () => {
    const { call } = await connect('legacy');
    const args = { url: 'https://example.com/needs', errorPath: true };
    await expect(call('everything_trigger-url-elicitation', args)).rejects.toMatchObject({
      code: -32042,
      data: { elicitations: [{ mode: 'url', url: 'https://modelcontextprotocol.io' }] },
    });
  });

  it('refuses the upstream when the caller lacks elicitation.url (the upstream decides what its tool answers)', async () => {
    const { asked, call } = await connect('legacy', false);
    const result = await call('everything_trigger-url-elicitation', { url: 'https://example.com/x' });
    expect(asked).toEqual([]);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('not relayed: the calling client does not support it');
  });
});
