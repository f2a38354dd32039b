import { describe, expect, it } from 'vitest';
import { pageAt, splitPages } from '../../src/documents/text-pages.js';
import { selectTextRange, type TextRangeOutcome } from '../../src/documents/text-range.js';

const paged = '--- page 1 ---\nfirst page\n\n--- page 2 ---\nsecond\n\n--- page 3 ---\n';

function range(outcome: TextRangeOutcome) {
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.range;
}

describe('splitPages', () => {
  it('splits converted PDF text at its page headers', () => {
    const pages = splitPages(paged) ?? [];
    expect(pages.map((page) => page.number)).toEqual([1, 2, 3]);
    expect(pages.map((page) => paged.slice(page.bodyStart, page.end))).toEqual(['first page', 'second', '']);
    expect(paged.slice(pages[1]?.start, pages[1]?.end)).toBe('--- page 2 ---\nsecond');
    expect(pageAt(pages, 0)?.number).toBe(1);
    expect(pageAt(pages, paged.indexOf('second'))?.number).toBe(2);
    expect(pageAt(pages, paged.length)?.number).toBe(3);
  });

  it('treats text without a leading page 1 header as unpaged', () => {
    expect(splitPages('hello\n--- page 1 ---\n')).toBeUndefined();
    expect(splitPages('')).toBeUndefined();
  });
});

describe('selectTextRange', () => {
  it('returns the whole text without a request', () => {
    expect(range(selectTextRange('abc', {}))).toEqual({
      text: 'abc',
      scope: 'document',
      offset: 0,
      length: 3,
      scopeChars: 3,
      remainingChars: 0,
      totalChars: 3,
    });
  });

  it('returns a window of characters and what remains', () => {
    expect(range(selectTextRange('0123456789', { offset: 2, length: 5 }))).toMatchObject({
      text: '23456',
      offset: 2,
      length: 5,
      remainingChars: 3,
    });
    expect(range(selectTextRange('0123456789', { offset: 8, length: 50 }))).toMatchObject({
      text: '89',
      remainingChars: 0,
    });
    expect(range(selectTextRange('0123456789', { offset: 10 }))).toMatchObject({ text: '', remainingChars: 0 });
  });

  it('returns one page (with its header), and windows within it', () => {
    expect(range(selectTextRange(paged, { page: 2 }))).toMatchObject({
      text: '--- page 2 ---\nsecond',
      page: 2,
      totalPages: 3,
      scope: 'page',
      scopeChars: 21,
      remainingChars: 0,
      totalChars: paged.length,
    });
    expect(range(selectTextRange(paged, { page: 1, offset: 15, length: 5 }))).toMatchObject({
      text: 'first',
      remainingChars: 5,
    });
  });

  it('says on which page a document window starts', () => {
    expect(range(selectTextRange(paged, { offset: paged.indexOf('second') }))).toMatchObject({
      scope: 'document',
      page: 2,
      totalPages: 3,
    });
  });

  it('never splits a surrogate pair at the end of a window', () => {
    expect(range(selectTextRange('a😀b', { length: 2 })).text).toBe('a😀');
  });

  it('explains impossible requests', () => {
    const noPages = selectTextRange('plain text', { page: 1 });
    expect(noPages).toEqual({ ok: false, message: expect.stringMatching(/no pages.*offset\/length/) });
    const tooFar = selectTextRange(paged, { page: 9 });
    expect(tooFar).toEqual({
      ok: false,
      message: expect.stringMatching(/Page 9 does not exist.*3 page\(s\), numbered 1 to 3/),
    });
    const pastEnd = selectTextRange('abc', { offset: 4 });
    expect(pastEnd).toEqual({ ok: false, message: expect.stringMatching(/Offset 4 is past the end.*0 to 3/) });
  });
});
