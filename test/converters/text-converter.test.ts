import { describe, expect, it } from 'vitest';
import { TextConverter, decodeText } from '../../src/converters/index.js';
import { utf16WithBom } from '../fixtures/document-builders.js';

const converter = new TextConverter();

describe('decodeText', () => {
  it('decodes UTF-8 and strips a UTF-8 BOM', () => {
    expect(decodeText(new TextEncoder().encode('héllo ✓'))).toBe('héllo ✓');
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toBe('hi');
  });

  it('decodes UTF-16 LE and BE with BOM', () => {
    expect(decodeText(utf16WithBom('Grüße, 世界', 'le'))).toBe('Grüße, 世界');
    expect(decodeText(utf16WithBom('Grüße, 世界', 'be'))).toBe('Grüße, 世界');
  });

  it('reads invalid UTF-8 as Windows-1252 instead of replacement characters', () => {
    expect(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toBe('café');
  });

  it('honours an explicit charset and ignores an unknown one', () => {
    expect(decodeText(new Uint8Array([0xa3]), 'iso-8859-2')).toBe('Ł');
    expect(decodeText(new TextEncoder().encode('ok'), 'no-such-charset')).toBe('ok');
  });
});

describe('TextConverter', () => {
  it('claims text/* and textual application types', () => {
    expect(converter.mimeTypes).toContain('text/*');
    expect(converter.mimeTypes).toContain('application/json');
    expect(converter.mimeTypes).toContain('application/x-yaml');
  });

  it("returns text with the file's own MIME type, parameters dropped", async () => {
    const out = await converter.convert({
      path: '/x/a.py',
      bytes: new Uint8Array([0xe9]),
      mimeType: 'text/x-python; charset=ISO-8859-1',
    });
    expect(out).toEqual({ kind: 'text', text: 'é', mimeType: 'text/x-python' });
  });

  it('returns an empty string for an empty file', async () => {
    const out = await converter.convert({ path: '/x/empty.txt', bytes: new Uint8Array(0), mimeType: 'text/plain' });
    expect(out).toEqual({ kind: 'text', text: '', mimeType: 'text/plain' });
  });
});
