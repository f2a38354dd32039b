/**
 * Big documents read in pieces (#10): `resources/read` answers at most `maxReadChars` characters, ends a
 * cut answer with a note naming the next `#char=START,END` URI (RFC 5147) and the same facts in
 * `_meta["mcp-toolkit/range"]`; `read_document` never returns more than the limit and says how to go on.
 * Driven through the in-memory transport with the v2 client.
 */
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentTools } from '../../src/document-tools/document-tools.js';
import { DocumentStore } from '../../src/documents/document-store.js';
import { makeTempDir, writeFile } from '../fixtures/document-builders.js';
import { InMemoryServer } from '../support/in-memory.js';

const MAX = 1000;
const TEXT = Array.from({ length: 250 }, (_, i) => `w${String(i).padStart(3, '0')}`).join(' '); // 1,249 chars

let server: InMemoryServer;
let cleanup: () => Promise<void>;
let uri: string;

beforeEach(async () => {
  let dir: string;
  ({ dir, cleanup } = await makeTempDir());
  uri = pathToFileURL(await writeFile(dir, 'long.txt', TEXT)).href;
  await writeFile(dir, 'short.txt', 'short');
  server = new InMemoryServer(undefined, { documents: new DocumentStore({ maxReadChars: MAX }) });
  server.registerFolder(dir);
  server.registerTool(createDocumentTools(server.documents));
  await server.start();
});

afterEach(async () => {
  await server.stop();
  await cleanup();
});

type Item = { uri: string; text?: string; _meta?: Record<string, unknown> };

describe('resources/read of a document over the read limit', () => {
  async function read(target: string): Promise<Item> {
    const client = await server.connect('modern');
    try {
      const { contents } = await client.readResource({ uri: target });
      return contents[0] as Item;
    } finally {
      await client.close();
    }
  }

  it('answers the first piece with a note and _meta naming the next piece, which reads the rest', async () => {
    const first = await read(uri);
    const next = `${uri}#char=1000,1249`;
    expect(first.text?.startsWith(TEXT.slice(0, MAX))).toBe(true);
    expect(first.text?.slice(MAX)).toBe(
      `\n\n[Showing characters 0-1,000 of 1,249 (at most 1,000 per read). Next part: ${next}]`,
    );
    expect(first._meta?.['mcp-toolkit/range']).toEqual({ offset: 0, length: MAX, totalChars: 1249, next });

    const rest = await read(next);
    expect(rest).toMatchObject({ uri: next, text: TEXT.slice(MAX) });
    expect(rest._meta?.['mcp-toolkit/range']).toEqual({ offset: 1000, length: 249, totalChars: 1249 });
  });

  it('serves any #char window (capped), leaves short documents whole and rejects bad windows clearly', async () => {
    const window = await read(`${uri}#char=5,15`);
    expect(window.text).toBe(TEXT.slice(5, 15)); // exactly what was asked: no note
    expect(window._meta?.['mcp-toolkit/range']).toMatchObject({ offset: 5, length: 10, next: `${uri}#char=15,1015` });
    const capped = await read(`${uri}#char=100,`);
    expect(capped.text).toMatch(/^w020 [^]*\(at most 1,000 per read\)\. Next part: .*#char=1100,1249\]$/);
    const short = await read(uri.replace('long.txt', 'short.txt'));
    expect(short).toEqual({ uri: uri.replace('long.txt', 'short.txt'), mimeType: 'text/plain', text: 'short' });
    await expect(read(`${uri}#char=9999,10000`)).rejects.toThrow(/starts past the end of the text, which has 1,249/);
    await expect(read(`${uri}#char=x`)).rejects.toThrow(/use #char=START,END/);
  });
});

describe('read_document over the read limit', () => {
  it('returns at most the limit, says so, and names the next offset', async () => {
    const client = await server.connect('legacy');
    try {
      const result = (await client.callTool({ name: 'read_document', arguments: { uri: 'long.txt' } })) as {
        content: Array<{ text: string }>;
        structuredContent: Record<string, unknown>;
      };
      expect(result.content[1]?.text).toBe(TEXT.slice(0, MAX));
      expect(result.content[0]?.text).toContain('At most 1,000 characters are returned per call');
      expect(result.content[0]?.text).toContain('call read_document again with offset=1000');
      expect(result.structuredContent).toMatchObject({ offset: 0, length: MAX, nextOffset: MAX, totalChars: 1249 });

      const capped = (await client.callTool({
        name: 'read_document',
        arguments: { uri: 'long.txt', offset: 100, length: 5000 },
      })) as { content: Array<{ text: string }> };
      expect(capped.content[1]?.text).toBe(TEXT.slice(100, 100 + MAX));
    } finally {
      await client.close();
    }
  });
});
