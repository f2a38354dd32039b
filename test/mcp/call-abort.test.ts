import { describe, expect, it } from 'vitest';
import { ToolCallAbortedError } from '../../src/errors.js';
import { CallAbort } from '../../src/mcp/view/call-abort.js';

const cancelled = () => new ToolCallAbortedError('cancelled', 'cancelled by the client');
const timedOut = () => new ToolCallAbortedError('timeout', 'timed out');

describe('CallAbort (the abort side of one tool call)', () => {
  it('returns a synchronous value as it is, without listening on the request signal', async () => {
    const upstream = new AbortController();
    const abort = new CallAbort(upstream.signal, cancelled);
    await expect(abort.run(() => 'done', undefined, timedOut)).resolves.toBe('done');
    upstream.abort();
    abort.dispose();
    expect(abort.signal.aborted).toBe(false);
  });

  it('resolves with a pending result and rejects with what execute rejects', async () => {
    const abort = new CallAbort(new AbortController().signal, cancelled);
    await expect(abort.run(() => Promise.resolve(7), undefined, timedOut)).resolves.toBe(7);
    const failing = new CallAbort(new AbortController().signal, cancelled);
    await expect(failing.run(() => Promise.reject(new Error('boom')), undefined, timedOut)).rejects.toThrow('boom');
  });

  it('a request aborted while execute is pending aborts the signal and ends the call with the reason', async () => {
    const upstream = new AbortController();
    const abort = new CallAbort(upstream.signal, cancelled);
    const pending = abort.run(() => new Promise(() => {}), undefined, timedOut);
    upstream.abort();
    await expect(pending).rejects.toMatchObject({ reason: 'cancelled' });
    expect(abort.signal.reason).toMatchObject({ reason: 'cancelled' });
    abort.dispose();
  });

  it('times out a pending call with the timeout reason (the first reason wins)', async () => {
    const upstream = new AbortController();
    const abort = new CallAbort(upstream.signal, cancelled);
    const pending = abort.run(() => new Promise(() => {}), 20, timedOut);
    await expect(pending).rejects.toMatchObject({ reason: 'timeout' });
    upstream.abort();
    expect(abort.signal.reason).toMatchObject({ reason: 'timeout' });
    abort.dispose();
  });

  it('a request aborted before the call starts aborts the signal up front; the call still runs to its result', async () => {
    const upstream = new AbortController();
    upstream.abort();
    const abort = new CallAbort(upstream.signal, cancelled);
    expect(abort.signal.aborted).toBe(true);
    await expect(abort.run(() => Promise.resolve('late'), undefined, timedOut)).resolves.toBe('late');
  });

  it('a request aborted during the synchronous part of execute ends a pending call', async () => {
    const upstream = new AbortController();
    const abort = new CallAbort(upstream.signal, cancelled);
    const pending = abort.run(
      () => {
        upstream.abort();
        return new Promise(() => {});
      },
      undefined,
      timedOut,
    );
    await expect(pending).rejects.toMatchObject({ reason: 'cancelled' });
  });
});
