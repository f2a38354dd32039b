import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { compactMiniSearch, DocumentFrequencies, Postings, SmallMap } from '../../src/documents/compact-minisearch.js';

describe('SmallMap', () => {
  it('behaves as a Map through inline entries, promotion and deletes, in insertion order', () => {
    const small = new SmallMap<number, string>();
    const map = new Map<number, string>();
    const steps: Array<[op: 'set' | 'delete', key: number, value?: string]> = [
      ['set', 5, 'a'],
      ['set', 5, 'b'],
      ['set', 2, 'c'],
      ['delete', 5],
      ['set', 7, 'd'],
      ['set', 5, 'e'],
      ['delete', 9],
      ['set', 1, 'f'],
      ['delete', 7],
      ['set', 7, 'g'],
    ];
    for (const [op, key, value] of steps) {
      const before = [...map.entries()];
      expect(op === 'set' ? small.set(key, value as string) : small.delete(key)).toEqual(
        op === 'set' ? small : map.has(key),
      );
      if (op === 'set') map.set(key, value as string);
      else map.delete(key);
      expect([...small], `after ${op} ${key} on ${JSON.stringify(before)}`).toEqual([...map]);
      expect([...small.keys()]).toEqual([...map.keys()]);
      expect(small.size).toBe(map.size);
      for (const probe of [1, 2, 5, 7, 9]) {
        expect(small.get(probe)).toBe(map.get(probe));
        expect(small.has(probe)).toBe(map.has(probe));
      }
    }
  });

  it('skips an inline entry deleted during an iteration, as a Map does', () => {
    const small = new SmallMap<number, number>().set(1, 10).set(2, 20);
    const seen: number[] = [];
    for (const [key] of small) {
      seen.push(key);
      small.delete(key === 1 ? 2 : 1);
    }
    expect(seen).toEqual([1]);
    const current = new SmallMap<number, number>().set(1, 10).set(2, 20);
    const visited: number[] = [];
    for (const key of current.keys()) {
      visited.push(key);
      current.delete(key);
    }
    expect(visited).toEqual([1, 2]);
    expect(current.size).toBe(0);
  });
});

describe('Postings and DocumentFrequencies', () => {
  /** A small deterministic generator (mulberry32), so a failure replays. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  it.each([
    ['ascending ids, deletes (MiniSearch use)', 0.02, 0],
    ['ids out of order and deleted ids added again', 0.3, 0.01],
  ])('behave as a Map: %s', (_, disorder, oddValue) => {
    for (const make of [() => new Postings(), () => new DocumentFrequencies()]) {
      for (let seed = 1; seed <= 8; seed++) {
        const next = random(seed);
        const subject = make();
        const map = new Map<number, number>();
        let id = 0;
        for (let step = 0; step < 400; step++) {
          const roll = next();
          if (roll < 0.55) {
            const key = next() < disorder ? Math.floor(next() * (id + 2)) : (id += 1 + Math.floor(next() * 3));
            const value = next() < oddValue ? 0.5 : 1 + Math.floor(next() * 5);
            subject.set(key, value);
            map.set(key, value);
          } else if (roll < 0.75 && map.size > 0) {
            const keys = [...map.keys()];
            const key = keys[Math.floor(next() * keys.length)] as number;
            subject.set(key, (map.get(key) as number) + 1);
            map.set(key, (map.get(key) as number) + 1);
          } else if (roll < 0.95) {
            const key = Math.floor(next() * (id + 2));
            expect(subject.delete(key)).toBe(map.delete(key));
          } else {
            // An iteration that deletes the entry it visits and the next one (MiniSearch's vacuum deletes the current one).
            const seen: number[] = [];
            const expected: number[] = [];
            const copy = new Map(map);
            for (const [key] of copy) {
              if (!copy.has(key)) continue;
              expected.push(key);
              if (key % 3 === 0) {
                copy.delete(key);
                const after = [...copy.keys()][expected.length];
                if (after !== undefined && after % 2 === 0) copy.delete(after);
              }
            }
            for (const key of subject.keys()) {
              seen.push(key);
              if (key % 3 === 0) {
                subject.delete(key);
                map.delete(key);
                const after = [...map.keys()][seen.length];
                if (after !== undefined && after % 2 === 0) {
                  subject.delete(after);
                  map.delete(after);
                }
              }
            }
            expect(seen).toEqual(expected);
          }
          expect([...subject], `seed ${seed} step ${step}`).toEqual([...map]);
          expect(subject.size).toBe(map.size);
          const probe = Math.floor(next() * (id + 2));
          expect(subject.get(probe)).toBe(map.get(probe));
          expect(subject.has(probe)).toBe(map.has(probe));
        }
      }
    }
  });
});

describe('compactMiniSearch', () => {
  const options = {
    fields: ['name', 'text'],
    searchOptions: {
      boost: { name: 2 },
      prefix: (term: string) => term.length >= 3,
      fuzzy: (term: string) => (term.length >= 5 ? Math.min(2, Math.round(term.length * 0.2)) : false),
      combineWith: 'OR' as const,
    },
  };
  const words = ['alpha', 'budget', 'cobalt', 'delta', 'ember', 'fjord', 'granite', 'harbor', 'indigo', 'juniper'];
  const doc = (i: number) => ({
    id: `file:///notes/note-${i}.md`,
    name: `area-${i % 3}/note-${i}.md`,
    text: `# Note ${i}\n\nAbout ${words[i % 10]} and ${words[(i * 7) % 10]}; code R${i}, R${i} again ${i % 4 === 0 ? 'granite granites' : ''}.`,
  });

  it('replaces the term records on this MiniSearch version (the memory saving is in effect)', () => {
    expect(compactMiniSearch(MiniSearch)).not.toBe(MiniSearch);
    expect(compactMiniSearch(MiniSearch)).toBe(compactMiniSearch(MiniSearch));
    const index = new (compactMiniSearch(MiniSearch))(options);
    index.add(doc(1));
    const record = (index as unknown as { _index: { get(term: string): unknown } })._index.get('r1');
    expect(record).toBeInstanceOf(SmallMap);
  });

  it('gives the same results, scores and order as MiniSearch, through discards and a vacuum', async () => {
    const plain = new MiniSearch(options);
    const compact = new (compactMiniSearch(MiniSearch))(options);
    const queries = ['granite harbor', 'note 12', 'r12', 'grante', 'area', 'code 7', 'juniper alpha budget', 'zzz'];
    const same = () => {
      for (const query of queries) expect(compact.search(query), query).toEqual(plain.search(query));
      expect(compact.termCount).toBe(plain.termCount);
      expect(compact.documentCount).toBe(plain.documentCount);
    };
    for (let i = 0; i < 300; i++) for (const index of [plain, compact]) index.add(doc(i));
    same();
    // Discarded (the search index's way to replace a document), then re-added with other text.
    for (let i = 0; i < 300; i += 7) {
      for (const index of [plain, compact]) {
        index.discard(doc(i).id);
        index.add({ ...doc(i), text: `Replaced ${i} with cobalt and R${i + 1000}` });
      }
    }
    same();
    await Promise.all([plain.vacuum(), compact.vacuum()]);
    same();
    for (const index of [plain, compact]) index.removeAll();
    same();
  });
});
