import { describe, expect, it, vi } from 'vitest';
import { SessionMap, type HttpSessionEvent } from '../../src/mcp/transports/http/session-map.js';

function fakeSession() {
  return { close: vi.fn(async () => {}) };
}

function map(options: Partial<ConstructorParameters<typeof SessionMap>[0]> = {}) {
  const events: HttpSessionEvent[] = [];
  const errors: unknown[] = [];
  const sessions = new SessionMap<ReturnType<typeof fakeSession>>({
    idleTimeoutMs: 1_000,
    maxSessions: 3,
    policy: 'reject',
    onEvent: (event) => events.push(event),
    onError: (error) => errors.push(error),
    ...options,
  });
  const open = (id: string) => {
    if (!sessions.reserve()) return undefined;
    const session = fakeSession();
    sessions.add(id, session);
    return session;
  };
  return { sessions, events, errors, open };
}

describe('SessionMap', () => {
  it('sweeps idle sessions only, skipping busy ones, and closes them with reason idle', () => {
    const { sessions, events, open } = map();
    const a = open('a')!;
    open('b');
    sessions.begin('b'); // b has an open stream
    const swept = sessions.sweep(Date.now() + 5_000);
    expect(swept).toBe(1);
    expect(a.close).toHaveBeenCalledOnce();
    expect(sessions.list().map((info) => info.id)).toEqual(['b']);
    expect(events.at(-1)).toMatchObject({ type: 'closed', sessionId: 'a', reason: 'idle' });
    sessions.end('b');
    expect(sessions.sweep(Date.now() + 500)).toBe(0); // idle clock restarted at end()
  });

  it('refuses at the cap under reject; counts reservations in flight', () => {
    const { sessions, open } = map({ maxSessions: 2 });
    expect(sessions.reserve()).toBe(true); // an initialize in flight
    open('a');
    expect(open('b')).toBeUndefined();
    sessions.release();
    expect(open('b')).toBeDefined();
  });

  it('evicts the least recently used idle session under evict-lru, never a busy one', () => {
    const { sessions, events, open } = map({ maxSessions: 2, policy: 'evict-lru' });
    open('a');
    open('b');
    sessions.begin('a');
    sessions.end('a'); // a is now more recent than b
    expect(open('c')).toBeDefined();
    expect(events).toContainEqual(expect.objectContaining({ sessionId: 'b', reason: 'evicted' }));
    sessions.begin('a');
    sessions.begin('c');
    expect(open('d')).toBeUndefined(); // every session busy
  });

  it('after closeAll, a late session is closed at once; event listener errors are reported', async () => {
    const { sessions, errors, open } = map({
      onEvent: () => {
        throw new Error('listener broke');
      },
    });
    const a = open('a')!;
    await sessions.closeAll('shutdown');
    expect(a.close).toHaveBeenCalledOnce();
    const late = open('late')!;
    expect(late.close).toHaveBeenCalledOnce();
    expect(sessions.size).toBe(0);
    expect(errors.length).toBeGreaterThan(0);
  });
});
