import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResultStatus, Tool as LlmChatTool, ToolParameters, type PartialToolResult } from '@johannes.latzel/llm-chat';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/index.js';
import { fromLlmChatTool } from '../../src/registry/llm-chat-adapter.js';
import { InMemoryServer } from '../support/in-memory.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/llm-chat-sleeper.mjs');

/** A real llm-chat tool that sleeps 10 s and never sees an abort signal. */
class SleepTool extends LlmChatTool {
  timers = 0;
  constructor(name = 'sleep') {
    super(name, 'Sleeps 10 s.', new ToolParameters({}));
  }
  protected async onExecute(): Promise<PartialToolResult> {
    this.timers += 1;
    await new Promise((resolve) => setTimeout(resolve, 10_000).unref());
    return { result: 'slept', status: ResultStatus.Success };
  }
}

const text = (result: { content: unknown }) => (result.content as Array<{ text: string }>).map((c) => c.text).join('');

let server: InMemoryServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('llm-chat tools get the controls of toolkit tools', () => {
  it('fromLlmChatTool(tool, { timeoutMs }) answers a timeout error instead of waiting for the tool', async () => {
    server = new InMemoryServer();
    server.registerTool(fromLlmChatTool(new SleepTool(), { timeoutMs: 150, title: 'Sleeper' }));
    const client = await server.connect('legacy');
    expect((await client.listTools()).tools[0]).toMatchObject({ name: 'sleep', title: 'Sleeper' });
    const started = performance.now();
    const result = await client.callTool({ name: 'sleep', arguments: {} });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/timed out after 150 ms/);
  });

  it('fromLlmChatTool rejects an invalid timeoutMs', () => {
    expect(() => fromLlmChatTool(new SleepTool(), { timeoutMs: 0 })).toThrow(/timeoutMs must be a positive/);
  });

  it('the server-wide defaultToolTimeoutMs applies to tools without their own, llm-chat ones registered as they are', async () => {
    server = new InMemoryServer(undefined, { defaultToolTimeoutMs: 150 });
    server.registerTool(new SleepTool('plain_sleep')); // an llm-chat Tool, no wrapper
    server.registerTool(fromLlmChatTool(new SleepTool('own_limit'), { timeoutMs: 400 }));
    server.registerTool(defineTool({ name: 'quick', execute: () => 'done' }));
    const client = await server.connect('modern');
    const plain = await client.callTool({ name: 'plain_sleep', arguments: {} });
    expect(text(plain)).toMatch(/"plain_sleep" timed out after 150 ms/);
    const own = await client.callTool({ name: 'own_limit', arguments: {} });
    expect(text(own)).toMatch(/"own_limit" timed out after 400 ms/);
    expect(text(await client.callTool({ name: 'quick', arguments: {} }))).toBe('done');
  });

  it('refuses a defaultToolTimeoutMs that is not a positive number', () => {
    expect(() => new InMemoryServer(undefined, { defaultToolTimeoutMs: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTIONS' }),
    );
  });
});

describe('a tool that outlives its aborted call is named when the server stops', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = undefined;
  });

  /** Starts the fixture as a real child process, opens a legacy session and calls `sleep` (id 2). */
  function startSleeper(env: Record<string, string> = {}) {
    const proc = spawn(process.execPath, [FIXTURE], { env: { ...process.env, ...env }, stdio: 'pipe' });
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const send = (message: object) => proc.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sleep', arguments: {} } });
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    return { proc, exited, stdout: () => stdout, stderr: () => stderr };
  }

  async function waitFor(check: () => boolean, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('logs the aborted call still running at stop() (stdin closed while the llm-chat tool sleeps)', async () => {
    const sleeper = startSleeper();
    await waitFor(() => sleeper.stdout().includes('"id":1'), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the tool is sleeping now
    sleeper.proc.stdin.end(); // the client goes away: the server stops itself
    await waitFor(() => sleeper.stderr().includes('STOPPED'), 5_000);
    expect(sleeper.stderr()).toMatch(/aborted tool call\(s\) still running: sleep \(request 2, disconnected\)/);
    expect(sleeper.stderr()).toMatch(/context\.signal/);
    // Node cannot cancel the tool's timer: the process is still alive, but it said why.
    const alive = await Promise.race([sleeper.exited.then(() => false), delay(500).then(() => true)]);
    expect(alive).toBe(true);
  });

  it('also names a call that timed out earlier and whose tool is still sleeping', async () => {
    const sleeper = startSleeper({ DEFAULT_TOOL_TIMEOUT_MS: '200' });
    await waitFor(() => sleeper.stdout().includes('"id":2'), 10_000);
    expect(sleeper.stdout()).toMatch(/timed out after 200 ms/);
    sleeper.proc.stdin.end();
    await waitFor(() => sleeper.stderr().includes('STOPPED'), 5_000);
    expect(sleeper.stderr()).toMatch(/still running: sleep \(request 2, timeout\)/);
  });
});

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
