import { describe, expect, it } from 'vitest';
import { PdfConverter, pdfPageHeader } from '../../src/converters/index.js';
import { makeCorruptPdf, makeEncryptedPdf, makePdf } from '../fixtures/document-builders.js';

const converter = new PdfConverter();
const input = (bytes: Uint8Array) => ({ path: '/x/doc.pdf', bytes, mimeType: 'application/pdf' });

describe('PdfConverter', () => {
  it('keeps pages apart, with a header line per page', async () => {
    const bytes = await makePdf(['alpha intro', 'beta middle', 'zebracorn finale']);
    const out = await converter.convert(input(bytes));
    expect(out.kind).toBe('text');
    expect(out.mimeType).toBe('text/plain');
    if (out.kind !== 'text') return;
    const sections = out.text.split(/^--- page \d+ ---$/m).map((part) => part.trim());
    expect(sections).toEqual(['', 'alpha intro', 'beta middle', 'zebracorn finale']);
    const wordAt = out.text.indexOf('zebracorn');
    expect(wordAt).toBeGreaterThan(out.text.indexOf(pdfPageHeader(3)));
    expect(out.text.indexOf(pdfPageHeader(3))).toBeGreaterThan(out.text.indexOf(pdfPageHeader(2)));
  });

  it('does not detach or alter the caller’s bytes', async () => {
    const bytes = await makePdf(['one']);
    const copy = bytes.slice();
    await converter.convert(input(bytes));
    expect(bytes.byteLength).toBe(copy.byteLength);
    expect(Buffer.from(bytes).equals(Buffer.from(copy))).toBe(true);
  });

  it('rejects an encrypted PDF with a reason naming the encryption', async () => {
    await expect(converter.convert(input(makeEncryptedPdf()))).rejects.toThrow(/encrypted \(password-protected\)/);
  });

  it('rejects a corrupt PDF with a reason naming the corruption', async () => {
    await expect(converter.convert(input(makeCorruptPdf()))).rejects.toThrow(/not a valid PDF or is corrupt/);
  });
});
