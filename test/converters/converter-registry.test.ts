import { describe, expect, it } from 'vitest';
import {
  BinaryConverter,
  ConverterRegistry,
  DOCX_MIME_TYPE,
  createDefaultConverters,
  type ConvertedContent,
  type Converter,
} from '../../src/converters/index.js';
import { PNG_1X1 } from '../fixtures/document-builders.js';

function fakeConverter(name: string, mimeTypes: string[], extensions?: string[]): Converter {
  return {
    name,
    mimeTypes,
    ...(extensions ? { extensions } : {}),
    async convert(): Promise<ConvertedContent> {
      return { kind: 'text', text: name, mimeType: 'text/plain' };
    },
  };
}

describe('createDefaultConverters().find', () => {
  const registry = createDefaultConverters();

  it('routes each built-in type to its converter', () => {
    expect(registry.find('application/pdf').name).toBe('pdf');
    expect(registry.find('text/html').name).toBe('html');
    expect(registry.find('application/xhtml+xml').name).toBe('html');
    expect(registry.find(DOCX_MIME_TYPE).name).toBe('docx');
    expect(registry.find('text/markdown').name).toBe('text');
    expect(registry.find('text/typescript').name).toBe('text');
    expect(registry.find('application/json').name).toBe('text');
    expect(registry.find('image/png').name).toBe('binary');
    expect(registry.find('audio/mpeg').name).toBe('binary');
  });

  it('reads structured-syntax suffix types (+json, +xml) as their base type, after type wildcards', () => {
    expect(registry.find('application/geo+json').name).toBe('text');
    expect(registry.find('application/atom+xml').name).toBe('text');
    expect(registry.find('image/svg+xml').name).toBe('binary');
  });

  it('ignores case and MIME parameters', () => {
    expect(registry.find('Text/HTML; charset=UTF-8').name).toBe('html');
  });

  it('uses an extension claim when the MIME type is generic', () => {
    expect(registry.find('application/octet-stream', 'docx').name).toBe('docx');
    expect(registry.find('application/zip', '.DOCX').name).toBe('docx');
  });

  it('falls back to the binary converter for anything unclaimed', () => {
    expect(registry.match('video/mp4')).toBeUndefined();
    expect(registry.find('video/mp4')).toBeInstanceOf(BinaryConverter);
    expect(registry.find('application/x-unheard-of', 'qqq').name).toBe('binary');
  });
});

describe('ConverterRegistry precedence', () => {
  it('lets a later registration override an earlier one for the same MIME type and extension', () => {
    const registry = new ConverterRegistry()
      .register(fakeConverter('first', ['text/markdown'], ['md']))
      .register(fakeConverter('second', ['text/markdown'], ['md']));
    expect(registry.find('text/markdown').name).toBe('second');
    expect(registry.find('application/octet-stream', 'md').name).toBe('second');
  });

  it('ranks exact MIME over extension over wildcard over */*', () => {
    const registry = new ConverterRegistry()
      .register(fakeConverter('exact', ['text/csv']))
      .register(fakeConverter('ext', [], ['csv']))
      .register(fakeConverter('wild', ['text/*']))
      .register(fakeConverter('any', ['*/*']));
    expect(registry.find('text/csv', 'csv').name).toBe('exact');
    expect(registry.find('text/plain', 'csv').name).toBe('ext');
    expect(registry.find('text/plain', 'txt').name).toBe('wild');
    expect(registry.find('video/mp4').name).toBe('any');
  });

  it('keeps a specific built-in when an app registers a broader wildcard', () => {
    const registry = createDefaultConverters().register(fakeConverter('mine', ['text/*']));
    expect(registry.find('text/plain').name).toBe('mine');
    expect(registry.find('text/html').name).toBe('html');
  });
});

describe('supportedExtensions', () => {
  it('lists every extension the default converters handle', () => {
    const extensions = createDefaultConverters().supportedExtensions();
    const expected = ['md', 'txt', 'json', 'csv', 'yaml', 'yml', 'html', 'pdf', 'docx', 'ts', 'tsx', 'py', 'rs', 'go'];
    for (const ext of [...expected, 'png', 'jpg', 'mp3', 'xml', 'toml', 'ini', 'log'])
      expect(extensions).toContain(ext);
    for (const ext of ['mp4', 'exe', 'zip', 'doc']) expect(extensions).not.toContain(ext);
    expect(extensions.every((ext) => ext === ext.toLowerCase() && !ext.startsWith('.'))).toBe(true);
    expect([...extensions].sort()).toEqual(extensions);
  });

  it('grows when a converter claims new extensions', () => {
    const registry = createDefaultConverters();
    expect(registry.supportedExtensions()).not.toContain('ipynbx');
    registry.register(fakeConverter('notebook', [], ['.IPYNBX']));
    expect(registry.supportedExtensions()).toContain('ipynbx');
  });
});

// #30 (W0 CLI): a folder scan asks supportsExtension one extension at a time instead of enumerating the database.
describe('supportsExtension', () => {
  it('answers exactly as membership in supportedExtensions', () => {
    const registry = createDefaultConverters();
    const listed = new Set(registry.supportedExtensions());
    const candidates = [...listed, 'mp4', 'exe', 'zip', 'doc', 'tar.gz', '', '.md', 'MD', 'ipynbx', 'unknownext'];
    for (const ext of candidates) expect(registry.supportsExtension(ext), ext).toBe(listed.has(ext));
  });

  it('follows registrations made after a first answer', () => {
    const registry = createDefaultConverters();
    expect(registry.supportsExtension('ipynbx')).toBe(false);
    registry.register(fakeConverter('notebook', [], ['.IPYNBX']));
    expect(registry.supportsExtension('ipynbx')).toBe(true);
  });
});

describe('BinaryConverter', () => {
  it('passes bytes through with the MIME type', async () => {
    const out = await new BinaryConverter().convert({ path: '/x/a.png', bytes: PNG_1X1, mimeType: 'image/png' });
    expect(out).toEqual({ kind: 'blob', data: PNG_1X1, mimeType: 'image/png' });
  });

  it('uses application/octet-stream when the type is empty', async () => {
    const out = await new BinaryConverter().convert({ path: '/x/a', bytes: new Uint8Array([1]), mimeType: '' });
    expect(out.mimeType).toBe('application/octet-stream');
  });
});
