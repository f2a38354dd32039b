import { describe, expect, it } from 'vitest';
import { normalizeUri } from '../../src/resources/uri-normalization.js';

describe('normalizeUri (RFC 3986 section 6.2.2)', () => {
  it.each([
    ['memo://item/%7euser', 'memo://item/~user'],
    ['memo://item/%7Euser', 'memo://item/~user'],
    ['MEMO://Item/~user', 'memo://item/~user'],
    ['memo://item/%2f%2F', 'memo://item/%2F%2F'],
    ['memo://item/%41%62%2D%2e%5F', 'memo://item/Ab-._'],
    ['file:///tmp/caf%c3%a9.txt', 'file:///tmp/caf%C3%A9.txt'],
    ['file:///tmp/café.txt', 'file:///tmp/caf%C3%A9.txt'],
    ['docs://x/😀', 'docs://x/%F0%9F%98%80'],
    ['memo://User@HOST:80/Path', 'memo://User@host:80/Path'],
    ['urn:ISBN:%41', 'urn:ISBN:A'],
    ['memo://item/{id}', 'memo://item/{id}'],
    ['memo://item/%zz', 'memo://item/%zz'],
    ['docs://x/\ud800', 'docs://x/%EF%BF%BD'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeUri(input)).toBe(expected);
    expect(normalizeUri(expected)).toBe(expected); // idempotent
  });

  it('returns a plain ASCII URI unchanged (the same string)', () => {
    const uri = 'memo://status/now?x=1#y';
    expect(normalizeUri(uri)).toBe(uri);
  });
});
