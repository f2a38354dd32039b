/**
 * `stop()` closes the conversion pool (#10): a child process whose server is stopped while a worker thread
 * spins on a conversion exits on its own (nothing keeps the event loop alive), and the read in flight is
 * answered with an error rather than left hanging. Uses the built dist/ (npm test builds first).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('../fixtures/stop-during-conversion.mjs', import.meta.url));

describe('stop() and the conversion pool', () => {
  it('lets the process exit while a conversion was running', async () => {
    const child = spawn(process.execPath, [CHILD], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    clearTimeout(killer);
    expect({ code, signal }, err).toEqual({ code: 0, signal: null });
    expect(out).toMatch(/^stopped; the read answered: .*the conversion pool is closed/);
  }, 30_000);
});
