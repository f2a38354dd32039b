import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('../fixtures/stdin-close-fixture.mjs', import.meta.url));

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pipe', version: '0' } },
};
const call = (id: number, name: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});

/**
 * Writes `messages` in one go, ends stdin at once (as `printf '...' | server` does), and collects
 * stdout and stderr until the process exits (killed after `deadlineMs`).
 */
async function pipe(messages: unknown[], args: string[] = [], deadlineMs = 15_000) {
  const started = Date.now();
  const child = spawn(process.execPath, [FIXTURE, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  const code = await new Promise<number | null>((resolve) => {
    child.on('exit', (exitCode) => resolve(exitCode));
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
  });
  clearTimeout(timer);
  const answers = new Map(
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id?: number; result?: { content?: Array<{ text?: string }> } })
      .map((message) => [message.id, message]),
  );
  return { code, answers, stderr, ms: Date.now() - started };
}

describe('stdio: stdin ends while calls run', () => {
  it('answers every request already read, then exits (a pipe gets all its answers)', async () => {
    const { code, answers } = await pipe([
      INITIALIZE,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      call(2, 'slow'),
      call(3, 'slow'),
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
    ]);
    expect(code).toBe(0);
    expect(answers.get(1)).toBeDefined();
    expect(answers.get(2)?.result?.content?.[0]?.text).toBe('slow done');
    expect(answers.get(3)?.result?.content?.[0]?.text).toBe('slow done');
    expect(answers.get(4)).toBeDefined();
  });

  it('stops after stdinCloseGraceMs: a call still running then is aborted (disconnected) and the process exits', async () => {
    const { code, answers, stderr, ms } = await pipe(
      [INITIALIZE, { jsonrpc: '2.0', method: 'notifications/initialized' }, call(2, 'hang'), call(3, 'slow')],
      ['500'],
    );
    expect(code).toBe(0);
    expect(answers.get(3)?.result?.content?.[0]?.text).toBe('slow done');
    expect(answers.has(2)).toBe(false);
    expect(stderr).toContain('ABORTED disconnected');
    expect(ms).toBeLessThan(10_000);
  });

  it('with stdinCloseGraceMs 0 it stops at once, as before', async () => {
    const { code, answers } = await pipe([INITIALIZE, call(2, 'slow')], ['0']);
    expect(code).toBe(0);
    expect(answers.has(2)).toBe(false);
  });
});
