import { describe, expect, it } from 'vitest';
import { ContentCache } from '../../src/documents/content-cache.js';

describe('ContentCache', () => {
  it('evicts the least recently used entries to stay within its byte budget', () => {
    const cache = new ContentCache<string>(100);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(cache.get('a')).toBe('A'); // a is now the most recent
    cache.set('c', 'C', 40);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
    expect(cache.totalBytes).toBe(80);
  });

  it('replaces a key and recounts its bytes', () => {
    const cache = new ContentCache<string>(100);
    cache.set('a', 'old', 60);
    cache.set('a', 'new', 10);
    expect(cache.get('a')).toBe('new');
    expect(cache.totalBytes).toBe(10);
    expect(cache.size).toBe(1);
  });

  it('does not store a value larger than the whole budget', () => {
    const cache = new ContentCache<string>(10);
    cache.set('small', 's', 5);
    cache.set('huge', 'h', 11);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('small')).toBe('s');
  });

  it('deletes and clears', () => {
    const cache = new ContentCache<string>(100);
    cache.set('a', 'A', 1);
    cache.set('b', 'B', 2);
    cache.delete('a');
    expect(cache.totalBytes).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.totalBytes).toBe(0);
  });
});
