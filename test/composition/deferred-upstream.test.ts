// #30 (W0): an upstream's connection code loads with import() when it is added (composition/deferred-upstream.ts).
// Until it has loaded, the handle must behave as the real upstream would right after it was made.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeferredUpstream, untriedStatus } from '../../src/composition/deferred-upstream.js';
import { Upstream, type UpstreamDeps } from '../../src/composition/upstream.js';
import { resolveUpstreamConfig } from '../../src/composition/upstream-config.js';
import { PromptRegistry } from '../../src/prompts/prompt-registry.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { ResourceRegistry } from '../../src/resources/resource-registry.js';
import { recordingLogger } from './gateway-clients.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function deps(): UpstreamDeps {
  return {
    registry: new ToolRegistry(),
    prompts: new PromptRegistry(),
    resources: new ResourceRegistry(),
    logger: recordingLogger([]),
    clientInfo: { name: 'gw', version: '1' },
    onStatus: () => {},
  };
}

/** A stdio upstream whose child would leave `marker` behind if it were ever started. */
function markingConfig(marker: string) {
  const script = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'started'); setInterval(() => {}, 1000)`;
  return resolveUpstreamConfig({
    name: 'notes',
    namespace: 'nt',
    command: process.execPath,
    args: ['-e', script],
    env: { TOKEN: 'hunter2' },
  });
}

describe('an upstream whose connection code has not loaded yet', () => {
  it('shows the same status as a real upstream that was just made', async () => {
    const config = markingConfig(join(tmpdir(), `never-${process.pid}`));
    const real = new Upstream(config, deps()); // not started: nothing runs
    expect(untriedStatus(config, 'connecting')).toStrictEqual(real.status);
    await real.close();
    expect(untriedStatus(config, 'closed')).toStrictEqual(real.status);
  });

  it('closed before its code loaded: never starts its child, and a waiter is told it was closed before it connected', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'deferred-upstream-'));
    folders.push(folder);
    const marker = join(folder, 'started');
    const upstream = new DeferredUpstream(markingConfig(marker), deps());
    expect(upstream.status.state).toBe('connecting');
    const waiting = upstream.whenConnected();
    const closing = upstream.close();
    expect(upstream.status.state).toBe('closed');
    await closing;
    await expect(waiting).rejects.toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: /was closed before it connected/,
    });
    await expect(upstream.whenConnected()).rejects.toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstream: 'notes' });
    expect(upstream.status).toMatchObject({ name: 'notes', state: 'closed', failures: 0 });
    await new Promise((resolve) => setTimeout(resolve, 500)); // a started child would have written by now
    expect(existsSync(marker)).toBe(false);
  });

  it('once loaded, starts connecting and reports the real state', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'deferred-upstream-'));
    folders.push(folder);
    const marker = join(folder, 'started');
    const upstream = new DeferredUpstream(markingConfig(marker), deps());
    const deadline = Date.now() + 15_000;
    while (!existsSync(marker) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(existsSync(marker)).toBe(true); // the real upstream spawned its child
    expect(upstream.status.state).toBe('connecting');
    await upstream.close();
    expect(upstream.status.state).toBe('closed');
  }, 20_000);
});

describe('an upstream whose connection code cannot be loaded (a broken install, dist/ replaced)', () => {
  afterEach(() => {
    vi.doUnmock('../../src/composition/upstream.js');
    vi.resetModules();
  });

  it('shows the failure, rejects whenConnected() with UPSTREAM_UNAVAILABLE, and tries again on the next wait', async () => {
    vi.resetModules();
    vi.doMock('../../src/composition/upstream.js', () => {
      throw new Error('Cannot find module dist/lazy/upstream.js');
    });
    const { DeferredUpstream: Deferred } = await import('../../src/composition/deferred-upstream.js');
    const logged: string[] = [];
    const upstream = new Deferred(markingConfig(join(tmpdir(), `never-${process.pid}`)), {
      ...deps(),
      logger: recordingLogger(logged),
    });
    const error = await upstream.whenConnected({ timeoutMs: 1_000 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'UpstreamError', code: 'UPSTREAM_UNAVAILABLE', upstream: 'notes' });
    expect((error as Error).message).toMatch(/connection code could not be loaded: /);
    expect(upstream.status).toMatchObject({
      state: 'retrying',
      lastError: expect.stringMatching(/could not be loaded/),
    });
    expect(upstream.status.failures).toBeGreaterThanOrEqual(1);
    expect(logged.join('\n')).toMatch(/loading the upstream connection code failed/);
    vi.doUnmock('../../src/composition/upstream.js');
    // The code is back: the next wait loads it, and the upstream starts (closed here before it connects).
    const waiting = upstream.whenConnected({ timeoutMs: 15_000 }).catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await upstream.close();
    expect(await waiting).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', message: /closed/ });
    expect(upstream.status.state).toBe('closed');
  }, 20_000);
});
