// serveStdio(server) and serveHttp(server) serve any BaseMcpServer, here a subclass of the test's own
// (neither StdioMcpServer nor HttpMcpServer), with the official clients: v2 in both eras and v1.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpRequestContext, Server } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidOptionsError, ServerStateError } from '../../src/errors.js';
import { BaseMcpServer, type BaseMcpServerOptions } from '../../src/mcp/mcp-server.js';
import { StdioMcpServer } from '../../src/mcp/stdio-server.js';
import { serverLifecycleOf } from '../../src/mcp/server/server-lifecycle.js';
import { serveHttp } from '../../src/mcp/transports/http/serve-http.js';
import { serveStdio } from '../../src/mcp/transports/stdio/serve-stdio.js';
import { defineTool } from '../../src/registry/tool.js';
import { CLIENT_KINDS, connectClient } from '../support/clients.js';
import { silentLogger } from '../support/in-memory.js';
import { until } from '../e2e/http-helpers.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/own-server-stdio-fixture.mjs', import.meta.url));

/** An app's own server: no transport of its own until a test serves it; counts the views it made. */
class OwnServer extends BaseMcpServer {
  viewsMade = 0;
  stopped: string[] = [];
  constructor(options: BaseMcpServerOptions = {}) {
    super({ name: 'own', version: '1.0.0' }, { logger: silentLogger(), ...options });
    this.registerTool(
      defineTool({ name: 'echo', inputSchema: z.object({ text: z.string() }), execute: ({ text }) => `own:${text}` }),
    );
  }
  async start(): Promise<void> {
    await serveStdio(this, { stdin: new PassThrough(), stdout: new PassThrough() });
  }
  protected override createFreshMcpServer(context?: McpRequestContext): Server {
    this.viewsMade += 1;
    return super.createFreshMcpServer(context);
  }
  protected override async onStop(): Promise<void> {
    this.stopped.push('onStop');
  }
}

/** One JSON-RPC line written to `stdin`, and the next line read from `stdout`. */
async function exchange(stdin: PassThrough, stdout: PassThrough, message: object): Promise<Record<string, unknown>> {
  const answer = once(stdout, 'data');
  stdin.write(`${JSON.stringify(message)}\n`);
  const [chunk] = (await answer) as [Buffer];
  return JSON.parse(chunk.toString().split('\n')[0]!) as Record<string, unknown>;
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};

describe.each(CLIENT_KINDS)('serveStdio(ownServer) in a child process, %s client', (kind) => {
  it('serves the subclass with its own view factory; server.stop() runs onStop, closes stdio and the process exits', async () => {
    const params = { command: process.execPath, args: [FIXTURE], stderr: 'pipe' as const };
    const transport = kind === 'v1' ? new StdioV1(params) : new StdioV2(params);
    let stderr = '';
    (transport.stderr as unknown as NodeJS.ReadableStream).on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = await connectClient(kind, transport);
    const pid = transport.pid!;
    try {
      expect(await client.toolNames()).toEqual(['echo', 'views', 'shutdown']);
      expect((await client.callTool('echo', { text: 'hi' })).content[0]?.text).toBe('own:hi');
      expect(Number((await client.callTool('views')).content[0]?.text)).toBeGreaterThanOrEqual(1);
      expect((await client.callTool('shutdown')).content[0]?.text).toBe('stopping');
      const alive = () => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      await until(() => !alive(), 'the child process to exit after server.stop()', 15_000);
      expect(stderr).toContain('OWN_SERVER_ON_STOP');
      expect(stderr).toContain('OWN_SERVER_CLOSED');
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});

describe('serveStdio(ownServer) in process', () => {
  let server: OwnServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('answers over the given streams; a second start by any transport is a ServerStateError; stop() closes the streams', async () => {
    server = new OwnServer();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const sessions: string[] = [];
    server.events.on('sessionCreated', ({ transport }) => sessions.push(`created ${transport}`));
    server.events.on('sessionClosed', ({ transport, reason }) => sessions.push(`closed ${transport} ${reason}`));
    const serving = await serveStdio(server, { stdin, stdout });
    expect(server.isRunning).toBe(true);
    expect(serverLifecycleOf(server).state).toBe('started');
    const answer = await exchange(stdin, stdout, INITIALIZE);
    expect(answer).toMatchObject({ id: 1, result: { serverInfo: { name: 'own' } } });
    expect(server.viewsMade).toBe(1);

    await expect(serveStdio(server, { stdin: new PassThrough(), stdout: new PassThrough() })).rejects.toThrow(
      new ServerStateError('serveStdio() cannot run: the server is started.'),
    );
    await expect(server.start()).rejects.toThrow(ServerStateError);
    await expect(serveHttp(server, { port: 0 }).listen()).rejects.toThrow(ServerStateError);

    expect(stdin.listenerCount('data')).toBeGreaterThan(0);
    await server.stop();
    await serving.closed;
    expect(server.stopped).toEqual(['onStop']);
    expect(stdin.listenerCount('data')).toBe(0); // the connection let go of stdin
    expect(sessions).toEqual(['created stdio', 'closed stdio shutdown']);
    await expect(serveStdio(server, { stdin, stdout })).rejects.toThrow(
      new ServerStateError('serveStdio() cannot run: the server is stopped.'),
    );
  });

  it('stdin ending stops the server (closed resolves, onStop ran)', async () => {
    server = new OwnServer();
    const stdin = new PassThrough();
    const serving = await serveStdio(server, { stdin, stdout: new PassThrough(), stdinCloseGraceMs: 0 });
    stdin.end();
    await serving.closed;
    expect(server.isRunning).toBe(false);
    expect(server.stopped).toEqual(['onStop']);
  });

  it('refuses unknown and base options and bad values, naming serveStdio', async () => {
    server = new OwnServer();
    await expect(serveStdio(server, { stdinn: process.stdin } as never)).rejects.toThrow(InvalidOptionsError);
    await expect(serveStdio(server, { logger: silentLogger() } as never)).rejects.toThrow(/Unknown serveStdio option/);
    await expect(serveStdio(server, { pingIntervalMs: -1 })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringMatching(/^serveStdio option pingIntervalMs must be a number of milliseconds >= 0/),
    });
    await expect(serveStdio(server, { maxMessageBytes: 0 })).rejects.toThrow(InvalidOptionsError);
    await expect(serveStdio({ events: server.events, stop: async () => {} } as never)).rejects.toThrow(TypeError);
    expect(serverLifecycleOf(server).state).toBe('new');
  });
});

describe.each(CLIENT_KINDS)('serveHttp(ownServer) on 127.0.0.1, %s client', (kind) => {
  let server: OwnServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('serves the app routes added before listen(), both eras and sessions; stop() closes the listener', async () => {
    server = new OwnServer();
    const serving = serveHttp(server, { port: 0 });
    expect(serving.address).toBeUndefined();
    serving.app.get('/hello', (_request, response) => void response.send('hi'));
    const { url } = await serving.listen();
    expect(serving.address?.url).toBe(url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(await (await fetch(new URL('/hello', url))).text()).toBe('hi');
    expect(((await (await fetch(new URL('/ready', url))).json()) as { status: string }).status).toBe('ready');

    const client = await connectClient(kind, kind === 'v1' ? new HttpV1(new URL(url)) : new HttpV2(new URL(url)));
    expect(await client.toolNames()).toEqual(['echo']);
    expect((await client.callTool('echo', { text: 'web' })).content[0]?.text).toBe('own:web');
    if (kind === 'v2-modern') {
      expect(serving.sessionCount).toBe(0); // 2026-07-28 is stateless: views per request
    } else {
      expect(serving.sessionCount).toBe(1);
      const [session] = serving.listSessions();
      expect(session).toMatchObject({ era: 'legacy', clientInfo: { name: expect.any(String) } });
      expect(server.viewsMade).toBe(1); // the session's view came from the subclass's factory
    }

    await expect(serving.listen()).rejects.toThrow(
      new ServerStateError('serveHttp().listen() cannot run: the server is started.'),
    );
    await expect(serveStdio(server, { stdin: new PassThrough(), stdout: new PassThrough() })).rejects.toThrow(
      ServerStateError,
    );
    await client.close().catch(() => undefined);
    await server.stop();
    expect(server.stopped).toEqual(['onStop']);
    await expect(fetch(new URL('/hello', url))).rejects.toThrow(); // nothing listens any more
    expect(serving.sessionCount).toBe(0);
    await expect(serving.listen()).rejects.toThrow(ServerStateError);
  });
});

describe('serveHttp options', () => {
  it('refuses unknown and base options and bad values, naming serveHttp; nothing is started', async () => {
    const server = new OwnServer();
    expect(() => serveHttp(server, { prot: 1 } as never)).toThrow(InvalidOptionsError);
    expect(() => serveHttp(server, { toolState: undefined } as never)).toThrow(/Unknown serveHttp option: "toolState"/);
    expect(() => serveHttp(server, { port: -1 })).toThrow(InvalidOptionsError);
    expect(() => serveHttp(server, { port: -1 })).toThrow(/^serveHttp option port must be an integer >= 0/);
    expect(() => serveHttp(server, { path: 'mcp' })).toThrow(/serveHttp option path must be a path starting with "\/"/);
    expect(serverLifecycleOf(server).state).toBe('new');
    await server.stop();
  });
});

describe('serverLifecycleOf: a transport of your own', () => {
  it('start(label, open) loads the tool state, returns what open made; stop() runs onStop, then the closers in order', async () => {
    const order: string[] = [];
    const store = {
      load: async () => (order.push('load'), { disabled: ['echo'], version: 1, savedAt: Date.now() }),
      save: async (disabled: readonly string[]) => ({ disabled: [...disabled], version: 2, savedAt: Date.now() }),
    };
    class Custom extends OwnServer {
      protected override async onStop(): Promise<void> {
        order.push('onStop');
      }
    }
    const server = new Custom({ toolState: store });
    const lifecycle = serverLifecycleOf(server);
    const started: string[] = [];
    server.events.on('started', () => started.push('started'));
    const opened = await lifecycle.start('custom()', () => {
      order.push('open');
      lifecycle.onClose(() => void order.push('close 1'));
      lifecycle.onClose(async () => void order.push('close 2'));
      return 'socket';
    });
    expect(opened).toBe('socket');
    expect(started).toEqual(['started']);
    expect(server.tools.isDisabled('echo')).toBe(true); // the store was loaded before open
    await expect(lifecycle.start('custom()', () => undefined)).rejects.toThrow(
      new ServerStateError('custom() cannot run: the server is started.'),
    );
    await server.stop();
    expect(order).toEqual(['load', 'open', 'onStop', 'close 1', 'close 2']);
    expect(lifecycle.state).toBe('stopped');
    let late = false;
    lifecycle.onClose(() => void (late = true)); // added after the transport closed: runs at once
    await until(() => late, 'a closer added after stop() to run');
  });

  it('a failed open leaves the server startable again', async () => {
    const server = new OwnServer();
    const lifecycle = serverLifecycleOf(server);
    await expect(lifecycle.start('custom()', () => Promise.reject(new Error('port taken')))).rejects.toThrow(
      'port taken',
    );
    expect(lifecycle.state).toBe('new');
    expect(server.isRunning).toBe(false);
    await lifecycle.start('custom()', () => undefined);
    expect(server.isRunning).toBe(true);
    await server.stop();
  });

  it('throws TypeError for an object that is not an mcp-toolkit server', () => {
    expect(() => serverLifecycleOf({})).toThrow(TypeError);
  });
});

describe('stop() while start() is still loading the tool state', () => {
  it('StdioMcpServer.start() rejects with ServerStateError and the server is not left running', async () => {
    let release!: () => void;
    const loading = new Promise<void>((resolve) => (release = resolve));
    const store = {
      load: async () => (await loading, undefined),
      save: async (disabled: readonly string[]) => ({ disabled: [...disabled], version: 1, savedAt: Date.now() }),
    };
    const stdin = new PassThrough();
    const server = new StdioMcpServer(
      { name: 'slow-state', version: '1.0.0' },
      { stdin, stdout: new PassThrough(), toolState: store, logger: silentLogger() },
    );
    const starting = server.start();
    const stopping = server.stop();
    release();
    await expect(starting).rejects.toThrow(ServerStateError);
    await stopping;
    expect(server.isRunning).toBe(false);
    expect(stdin.listenerCount('data')).toBe(0); // no connection was opened after stop()
  });
});
