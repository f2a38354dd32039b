// Credentials never echoed: an upstream's `env` values and `headers` (a bearer token) appear in no
// list (tools, prompts, resources, templates), no log line, no /ready body, no state and no error
// message, even when the upstream itself echoes them back in its errors and on its stderr.
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { AuthenticationError, HttpMcpServer, defineTool } from '../../dist/index.js';
import type { UpstreamHandle } from '../../dist/public/composition.js';
import { connectClient, type TestClient } from '../support/clients.js';
import { EVERYTHING, quiet, recordingLogger, until } from './gateway-clients.js';

const ENV_SECRET = 'env-secret-93be1f07';
const BEARER = 'bearer-secret-5d2c88aa';
const ECHO_BEARER = 'bearer-secret-echoed-71f0';

describe('gateway: upstream credentials are never echoed', () => {
  const logLines: string[] = [];
  let echoing = false;
  let own: HttpMcpServer;
  let echo: Server;
  let gateway: HttpMcpServer;
  let handles: UpstreamHandle[];
  let client: TestClient;

  beforeAll(async () => {
    // Our own server as an HTTP upstream whose authenticate hook, once `echoing`, refuses with the token in its message.
    own = new HttpMcpServer(
      { name: 'own', version: '1.0.0' },
      {
        port: 0,
        logger: recordingLogger([]),
        authenticate: (request) => {
          const header = String(request.headers.authorization);
          if (echoing) throw new AuthenticationError(`token refused: ${header}`);
          return header === `Bearer ${BEARER}` ? { token: BEARER, clientId: 'gw', scopes: [] } : undefined;
        },
      },
    );
    own.registerTool(defineTool({ name: 'greet', execute: () => 'hello' }));
    await own.start();
    // A plain HTTP endpoint that answers every request 500 with the Authorization header in its body.
    echo = createServer((request, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`no: ${request.headers.authorization}`);
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/mcp`;

    gateway = new HttpMcpServer({ name: 'gateway', version: '1.0.0' }, { port: 0, logger: recordingLogger(logLines) });
    handles = [
      gateway.addUpstream({
        name: 'everything',
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        env: { API_TOKEN: ENV_SECRET },
      }),
      // A child that prints its secret on stderr and in its exit, then fails.
      gateway.addUpstream({
        name: 'leaky',
        command: process.execPath,
        args: ['-e', 'console.error("my token is " + process.env.API_TOKEN); process.exit(3)'],
        env: { API_TOKEN: ENV_SECRET },
        backoff: { initialMs: 60_000, maxMs: 60_000 },
      }),
      gateway.addUpstream({ name: 'own', url: own.address.url, headers: { Authorization: `Bearer ${BEARER}` } }),
      // Quotes its token in the message and the data of its JSON-RPC errors.
      gateway.addUpstream({
        name: 'quoting',
        command: process.execPath,
        args: [fileURLToPath(new URL('../fixtures/secret-echo-upstream.mjs', import.meta.url))],
        env: { API_TOKEN: ENV_SECRET },
      }),
      gateway.addUpstream({
        name: 'echo',
        url: echoUrl,
        headers: { Authorization: `Bearer ${ECHO_BEARER}` },
        backoff: { initialMs: 60_000, maxMs: 60_000 },
      }),
    ];
    await gateway.start();
    await Promise.all([handles[0]!.whenConnected(), handles[2]!.whenConnected(), handles[3]!.whenConnected()]);
    await until(() => handles[1]!.status.failures > 0 && handles[4]!.status.failures > 0, 'the failing upstreams');
    await quiet(300);
    client = await connectClient('v2-legacy', new HttpV2(new URL(gateway.address.url)));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.stop();
    await own?.stop();
    await new Promise((resolve) => echo?.close(resolve));
  }, 30_000);

  const secrets = [ENV_SECRET, BEARER, ECHO_BEARER];
  const expectClean = (text: string, what: string) => {
    for (const secret of secrets) expect(text, `${what} shows ${secret}`).not.toContain(secret);
  };

  it('lists, states and /ready show no secret', async () => {
    const lists = [
      await client.toolNames(),
      await client.prompts(),
      await client.resources(),
      await client.resourceTemplates(),
    ];
    expect(lists[0]).toEqual(expect.arrayContaining(['everything_echo', 'own_greet']));
    expectClean(JSON.stringify(lists), 'a list');
    expectClean(JSON.stringify(gateway.upstreams), 'the upstream states');
    const ready = await fetch(new URL('/ready', gateway.address.url));
    const body = await ready.text();
    expect(body).toContain('"leaky"');
    expectClean(body, '/ready');
    // The failures were reported, with the secrets blanked.
    expect(handles[4]!.status.lastError).toBeTruthy();
    expect(handles[4]!.status.lastError).not.toContain(ECHO_BEARER);
    // The child that exited at start: its (blanked) stderr says why, where a person looks.
    expect(handles[1]!.status.lastError).toContain('my token is [redacted]');
  });

  it("the message and the data of an upstream's JSON-RPC error are both blanked", async () => {
    const error = await client.callTool('quoting_fail').then(
      (result) => ({ result }),
      (failure: Error & { code?: number; data?: unknown }) => ({
        code: failure.code,
        message: failure.message,
        data: failure.data,
      }),
    );
    expect(error).toMatchObject({
      code: -32602,
      data: { detail: 'key=[redacted]', nested: [{ '[redacted]': '[redacted]' }] },
    });
    expect(JSON.stringify(error)).toContain('bad key [redacted]');
    expectClean(JSON.stringify(error), 'the JSON-RPC error');
  });

  it('a failed tool-list refresh is logged without the secret the upstream quoted', async () => {
    await client.callTool('quoting_relist');
    await until(() => logLines.some((line) => line.includes('refreshing the tool list')), 'the failed refresh');
    const line = logLines.find((entry) => entry.includes('refreshing the tool list'))!;
    expect(line).toContain('[redacted]');
    expectClean(line, 'the refresh warning');
  });

  it("an error message of a forwarded call does not carry the upstream's echo of the token", async () => {
    echoing = true;
    try {
      const result = await client.callTool('own_greet').catch((error: Error) => ({
        isError: true,
        content: [{ type: 'text', text: error.message }],
      }));
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('[redacted]');
      expectClean(JSON.stringify(result), 'the call error');
    } finally {
      echoing = false;
    }
  });

  it("an isError result of a forwarded call has the upstream's quote of its secret blanked", async () => {
    const result = await client.callTool('quoting_failed');
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: 'auth failed with token [redacted]' }]);
    expect(result.structuredContent).toEqual({ why: 'auth failed with token [redacted]' });
    expectClean(JSON.stringify(result), 'the isError result');
  });

  it('no log line carries a secret, though the upstreams echoed them', async () => {
    const all = logLines.join('\n');
    expect(all).toContain('upstream stderr'); // the leaky child's line was logged...
    expect(all).toContain('[redacted]'); // ...with its secret blanked
    expectClean(all, 'the log');
  });
});
