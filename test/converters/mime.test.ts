import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { COMMON_TYPES } from '../../src/converters/mime.js';
import {
  detectMimeType,
  extensionOf,
  isTextMimeType,
  looksLikeText,
  mimeTypeFromExtension,
  mimeTypeFromPath,
} from '../../src/converters/index.js';
import { PNG_1X1, makeAsciiPdf, makeDocx, makePdf, utf16WithBom } from '../fixtures/document-builders.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

// #30 (W0 CLI): the common extensions are answered without loading mime-types; the answers must be its own.
describe('COMMON_TYPES', () => {
  it('holds what mime-types answers for each extension', () => {
    const require = createRequire(import.meta.url);
    const mime = require('mime-types') as typeof import('mime-types');
    for (const [ext, type] of Object.entries(COMMON_TYPES)) expect(type, ext).toBe(mime.lookup(ext));
  });
});

describe('mimeTypeFromPath', () => {
  it('treats TypeScript sources as text, not MPEG transport streams', () => {
    for (const file of ['a.ts', 'b.mts', 'c.cts']) expect(mimeTypeFromPath(file)).toBe('text/typescript');
    expect(mimeTypeFromPath('view.tsx')).toBe('text/tsx');
  });

  it('maps common source and config files to text types', () => {
    const files = [
      'x.py',
      'x.rs',
      'x.go',
      'x.java',
      'x.c',
      'x.h',
      'x.cpp',
      'x.sh',
      'x.toml',
      'x.ini',
      'x.log',
      'x.php',
      'x.bat',
    ];
    for (const file of files) {
      const type = mimeTypeFromPath(file);
      expect(type, file).toBeDefined();
      expect(type?.startsWith('text/'), `${file} -> ${type}`).toBe(true);
    }
  });

  it('keeps the mime-types answer for ordinary documents', () => {
    expect(mimeTypeFromPath('/x/notes.md')).toBe('text/markdown');
    expect(mimeTypeFromPath('data.json')).toBe('application/json');
    expect(mimeTypeFromPath('paper.PDF')).toBe('application/pdf');
    expect(mimeTypeFromPath('photo.jpg')).toBe('image/jpeg');
  });

  it('recognizes .env-like and well-known extension-less names as text', () => {
    expect(mimeTypeFromPath('/app/.env')).toBe('text/plain');
    expect(mimeTypeFromPath('/app/.env.local')).toBe('text/plain');
    expect(mimeTypeFromPath('/app/Dockerfile')).toBe('text/plain');
    expect(mimeTypeFromPath('/app/.gitignore')).toBe('text/plain');
  });

  it('returns undefined for unknown or missing extensions', () => {
    expect(mimeTypeFromPath('blob.qqqzz')).toBeUndefined();
    expect(mimeTypeFromPath('noext')).toBeUndefined();
  });

  it('accepts extensions with a dot and in any case', () => {
    expect(mimeTypeFromExtension('.MD')).toBe('text/markdown');
    expect(mimeTypeFromExtension('')).toBeUndefined();
    expect(extensionOf('/a/B.TXT')).toBe('txt');
    expect(extensionOf('/a/.env')).toBe('');
  });
});

describe('isTextMimeType / looksLikeText', () => {
  it('classifies MIME types', () => {
    expect(isTextMimeType('text/csv')).toBe(true);
    expect(isTextMimeType('application/json; charset=utf-8')).toBe(true);
    expect(isTextMimeType('application/vnd.api+json')).toBe(true);
    expect(isTextMimeType('application/pdf')).toBe(false);
    expect(isTextMimeType('image/png')).toBe(false);
  });

  it('tells text bytes from binary bytes', () => {
    expect(looksLikeText(utf8('héllo\n\tworld'))).toBe(true);
    expect(looksLikeText(new Uint8Array(0))).toBe(true);
    expect(looksLikeText(utf16WithBom('hi', 'le'))).toBe(true);
    expect(looksLikeText(PNG_1X1)).toBe(false);
    expect(looksLikeText(new Uint8Array([1, 2, 3, 4, 5, 6, 65]))).toBe(false);
  });
});

describe('detectMimeType', () => {
  it('believes the signature when a PDF is named .txt', async () => {
    expect(await detectMimeType('/x/report.txt', await makePdf(['hello']))).toBe('application/pdf');
  });

  it('believes the %PDF- signature even when the whole file is printable ASCII', async () => {
    const pdf = makeAsciiPdf('ascii only');
    expect(looksLikeText(pdf)).toBe(true);
    expect(await detectMimeType('/x/report.txt', pdf)).toBe('application/pdf');
  });

  it('believes the signature when a PNG is named .txt or has no extension', async () => {
    expect(await detectMimeType('/x/image.txt', PNG_1X1)).toBe('image/png');
    expect(await detectMimeType('/x/image', PNG_1X1)).toBe('image/png');
  });

  it('keeps a text extension for text content even when it resembles a signature', async () => {
    // "ID3" opens MP3 files; a text file starting with it is still text.
    expect(await detectMimeType('/x/notes.txt', utf8('ID3 tags are metadata'))).toBe('text/plain');
    // file-type reads a UTF-16 BOM as an MPEG audio frame; the BOM says text.
    expect(await detectMimeType('/x/notes.txt', utf16WithBom('hello', 'le'))).toBe('text/plain');
  });

  it('prefers a precise extension over a generic container signature', async () => {
    expect(
      await detectMimeType('/x/pic.svg', utf8('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')),
    ).toBe('image/svg+xml');
    expect(await detectMimeType('/x/doc.docx', makeDocx('<w:p/>'))).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
  });

  it('falls back to text/plain or octet-stream when nothing is known', async () => {
    expect(await detectMimeType('/x/README', utf8('plain words'))).toBe('text/plain');
    expect(await detectMimeType('/x/data.qqqzz', utf8('plain words'))).toBe('text/plain');
    expect(await detectMimeType('/x/data.qqqzz', new Uint8Array([0, 1, 2, 3, 0, 0]))).toBe('application/octet-stream');
  });
});
