import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { DOCX_MIME_TYPE, DocxConverter } from '../../src/converters/index.js';
import { docxParagraph, docxTable, makeDocx } from '../fixtures/document-builders.js';

const converter = new DocxConverter();
const input = (bytes: Uint8Array) => ({ path: '/x/report.docx', bytes, mimeType: DOCX_MIME_TYPE });

describe('DocxConverter', () => {
  it('converts headings, paragraphs and tables to Markdown', async () => {
    const docx = makeDocx(
      docxParagraph('Quarterly report', 'Heading1') +
        docxParagraph('Revenue grew by **ten** percent.') +
        docxTable([
          ['Region', 'Sales'],
          ['North', '42'],
        ]),
    );
    const out = await converter.convert(input(docx));
    expect(out.kind).toBe('text');
    expect(out.mimeType).toBe('text/markdown');
    if (out.kind !== 'text') return;
    expect(out.text).toMatch(/^# Quarterly report$/m);
    expect(out.text).toContain('Revenue grew by \\*\\*ten\\*\\* percent.');
    expect(out.text).toContain('| Region | Sales |\n| --- | --- |\n| North | 42 |');
  });

  it('claims the DOCX MIME type and extension', () => {
    expect(converter.mimeTypes).toEqual([DOCX_MIME_TYPE]);
    expect(converter.extensions).toEqual(['docx']);
  });

  it('rejects bytes that are not a zip', async () => {
    await expect(converter.convert(input(new TextEncoder().encode('plain text')))).rejects.toThrow(
      /^not a valid DOCX file: /,
    );
  });

  it('rejects a zip without a Word document inside', async () => {
    const zip = zipSync({ 'hello.txt': strToU8('hi') });
    await expect(converter.convert(input(zip))).rejects.toThrow(/not a valid DOCX file: .*main document/i);
  });
});
