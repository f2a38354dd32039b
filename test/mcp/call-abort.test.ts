import { describe, expect, it } from 'vitest';
import { ToolCallAbortedError } from '../../src/errors.js';
import { CallAbort } from '../../src/mcp/view/call-abort.js';
import { followAbort } from '../../src/registry/context-abort.js';

const cancelled = () => new ToolCallAbortedError('cancelled', 'cancelled by the client');
const timedOut = () => new ToolCallAbortedError('timeout', 'timed out');

describe('CallAbort (the abort side of one tool call)', () => {
  it('returns a synchronous value as it is (no promise), without listening on the request signal', () => {
    const upstream = new AbortController();
    const abort = new CallAbort(upstream.signal, cancelled);
    expect(abort.run(() => 'done', undefined, timedOut)).toBe('done');
    upstream.abort();
    abort.dispose();
    expect(abort.signal.aborted).toBe(false);
  });

  it('throws what a synchronous execute throws', () => {
    const abort = new CallAbort(new AbortController().signal, cancelled);
    expect(() =>
      abort.run(
        () => {
          throw new Error('sync boom');
        },
        undefined,
        timedOut,
      ),
    ).toThrow('sync boom');
  });

  it('a signal first read after the call was aborted is already aborted with the first reason', () => {
    const abort = new CallAbort(new AbortController().signal, cancelled);
    abort.abort(timedOut());
    abort.abort(cancelled());
    expect(abort.aborted).toBe(true);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toMatchObject({ reason: 'timeout' });
  });

  it('counts timeoutMs from the start of the call, its synchronous part included', async () => {
    const abort = new CallAbort(new AbortController().signal, cancelled);
    const started = Date.now();
    const pending = abort.run(
      () => {
        while (Date.now() - started < 60); // a synchronous part longer than the timeout
        return new Promise(() => {});
      },
      40,
      timedOut,
    );
    await expect(pending).rejects.toMatchObject({ reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_000);
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

  it('a request aborted before the call starts: the signal is aborted up front and a pending call ends at once', async () => {
    const upstream = new AbortController();
    upstream.abort();
    const abort = new CallAbort(upstream.signal, cancelled);
    expect(abort.signal.aborted).toBe(true);
    // Before: a call that never settled was never answered nor timed out (found by a fresh-user run).
    await expect(abort.run(() => new Promise(() => {}), 50, timedOut)).rejects.toMatchObject({ reason: 'cancelled' });
  });

  it('a synchronous execute that overran timeoutMs is timed out (it could not be interrupted)', () => {
    const abort = new CallAbort(new AbortController().signal, cancelled);
    const started = Date.now();
    expect(() =>
      abort.run(
        () => {
          while (Date.now() - started < 40);
          return 'too late';
        },
        20,
        timedOut,
      ),
    ).toThrow(expect.objectContaining({ reason: 'timeout' }));
    expect(abort.signal.reason).toMatchObject({ reason: 'timeout' });
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

  it('follow() calls its listeners on the first abort without making the signal, and stops when asked', () => {
    const abort = new CallAbort(new AbortController().signal, cancelled);
    const calls: string[] = [];
    abort.follow(() => calls.push('first'));
    const stop = abort.follow(() => calls.push('stopped'));
    abort.follow(() => calls.push(`signal ${abort.signal.aborted} ${abort.signal.reason.reason}`));
    stop();
    abort.abort(timedOut());
    abort.abort(cancelled());
    expect(calls).toEqual(['first', 'signal true timeout']);
    abort.follow(() => calls.push('late')); // like an abort listener added to an aborted signal: never called
    expect(calls).toHaveLength(2);
  });

  it("follow() listeners run after the signal's own abort listeners", () => {
    const abort = new CallAbort(new AbortController().signal, cancelled);
    const calls: string[] = [];
    abort.signal.addEventListener('abort', () => calls.push('signal'));
    abort.follow(() => calls.push('follower'));
    abort.abort(cancelled());
    expect(calls).toEqual(['signal', 'follower']);
  });

  it('followAbort() on a context without the hook listens on its signal', () => {
    const controller = new AbortController();
    const calls: unknown[] = [];
    const stop = followAbort({ signal: controller.signal }, () => calls.push(controller.signal.reason));
    const stopped = followAbort({ signal: controller.signal }, () => calls.push('stopped'));
    stopped();
    controller.abort('why');
    stop();
    expect(calls).toEqual(['why']);
    followAbort({ signal: controller.signal }, () => calls.push('late'));
    expect(calls).toEqual(['why']);
  });
});
