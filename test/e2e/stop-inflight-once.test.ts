import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/registry/tool.js';
import { exitWithin, openSession, post, readSse, sessionHeaders, startServer, until } from './http-helpers.js';

const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/**
 * #16 part 4: `stop()` aborts running calls (reason `shutdown`) and each is answered through
 * its own result path exactly once, even when the tool finishes at the same moment.
 * `finishing` resolves as soon as its signal aborts: the racing late result must not be sent too.
 */
const CALLS = [
  { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'finishing', arguments: {} } },
  { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'silent', arguments: {} } },
];

describe('stop() with calls in flight: exactly one answer per id', () => {
  it('legacy HTTP', async () => {
    const server = await startServer();
    let running = 0;
    server.registerTool(
      defineTool({
        name: 'finishing',
        execute: (_args, context) =>
          new Promise<string>((resolve) => {
            running += 1;
            context.signal.addEventListener('abort', () => resolve('late result'));
          }),
      }),
    );
    server.registerTool(
      defineTool({
        name: 'silent',
        execute: () => {
          running += 1;
          return new Promise<string>(() => {});
        },
      }),
    );
    const { url } = server.address;
    const id = await openSession(url);
    const responses = CALLS.map((call) => post(url, call, sessionHeaders(id)));
    await until(() => running === 2, 'both tools to start');
    const stopped = server.stop();
    const events = (await Promise.all(responses.map(async (response) => readSse(await response, () => false)))).flat();
    await stopped;
    const answers = events.flatMap((event) => (event.message && 'id' in event.message ? [event.message] : []));
    expect(answers).toHaveLength(2);
    for (const callId of ['a', 'b']) {
      const mine = answers.filter((answer) => answer.id === callId);
      expect(mine).toEqual([
        { jsonrpc: '2.0', id: callId, error: { code: -32603, message: expect.stringMatching(/shutting down/) } },
      ]);
    }
  });

  it('stdio (a real child process)', async () => {
    const script = `
      import { StdioMcpServer, defineTool } from ${JSON.stringify(DIST)};
      const server = new StdioMcpServer({ name: 'child', version: '1' });
      let running = 0;
      const started = () => { if (++running === 2) setTimeout(() => void server.stop(), 20); };
      server.registerTool(defineTool({ name: 'finishing', execute: (_a, ctx) => new Promise((resolve) => {
        started(); ctx.signal.addEventListener('abort', () => resolve('late result'));
      }) }));
      server.registerTool(defineTool({ name: 'silent', execute: () => { started(); return new Promise(() => {}); } }));
      await server.start();
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const lines = [
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...CALLS,
    ];
    child.stdin.write(lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    const exit = await exitWithin(child, 10_000);
    child.stdin.destroy();
    expect(exit).not.toBe('hung');
    const answers = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id?: unknown; error?: { code: number; message: string } })
      .filter((message) => message.id === 'a' || message.id === 'b');
    expect(answers).toHaveLength(2);
    for (const callId of ['a', 'b']) {
      expect(answers.filter((answer) => answer.id === callId)).toEqual([
        { jsonrpc: '2.0', id: callId, error: { code: -32603, message: expect.stringMatching(/shutting down/) } },
      ]);
    }
  });
});
