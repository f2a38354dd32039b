import { describe, expect, it } from 'vitest';
import { SteadyMap, SteadySet } from '../../src/mcp/server/steady-table.js';
import { steadyRequestTable, steadyTableFits } from '../../src/mcp/sdk-internals/stdio-tools-call.js';

describe('steady tables (a hidden entry keeps the hash table from shrinking)', () => {
  it('SteadyMap behaves as a Map for what it offers', () => {
    const map = new SteadyMap<string | number, string>();
    expect(map.size).toBe(0);
    expect([...map.values()]).toEqual([]);
    map.set(1, 'a').set('x', 'b');
    expect(map.size).toBe(2);
    expect(map.get(1)).toBe('a');
    expect(map.has('x')).toBe(true);
    expect(map.get('missing')).toBeUndefined();
    expect([...map.values()]).toEqual(['a', 'b']);
    expect(map.delete(1)).toBe(true);
    expect(map.delete(1)).toBe(false);
    expect(map.size).toBe(1);
    map.clear();
    expect(map.size).toBe(0);
    expect([...map.values()]).toEqual([]);
    map.set(2, 'c');
    expect([...map.values()]).toEqual(['c']);
  });

  it('SteadySet behaves as a Set for what it offers', () => {
    const set = new SteadySet<object>();
    const a = {};
    const b = {};
    expect(set.size).toBe(0);
    expect([...set]).toEqual([]);
    set.add(a).add(b).add(a);
    expect(set.size).toBe(2);
    expect(set.has(a)).toBe(true);
    expect([...set]).toEqual([a, b]);
    expect(set.delete(a)).toBe(true);
    expect(set.delete(a)).toBe(false);
    expect([...set]).toEqual([b]);
    expect(set.size).toBe(1);
  });
});

describe("the SDK request table's hidden entry (stdio views)", () => {
  it('is added only when the SDK uses the table by id and aborts every value on close', () => {
    class Uses {
      _requestHandlerAbortControllers = new Map();
      serve(id: number) {
        this._requestHandlerAbortControllers.set(id, new AbortController());
        this._requestHandlerAbortControllers.get(id);
        this._requestHandlerAbortControllers.delete(id);
      }
      _onclose() {
        const requestHandlerAbortControllers = this._requestHandlerAbortControllers;
        this._requestHandlerAbortControllers = new Map();
        for (const controller of requestHandlerAbortControllers.values()) controller.abort(new Error('closed'));
      }
    }
    class Counts extends Uses {
      busy() {
        return this._requestHandlerAbortControllers.size > 0;
      }
    }
    class Lists extends Uses {
      ids() {
        return [...this._requestHandlerAbortControllers.keys()];
      }
    }
    expect(steadyTableFits(new Uses() as never)).toBe(true);
    expect(steadyTableFits(new Counts() as never)).toBe(false);
    expect(steadyTableFits(new Lists() as never)).toBe(false);
    const view = new Counts();
    steadyRequestTable(view as never);
    expect(view._requestHandlerAbortControllers.size).toBe(0);
  });
});
