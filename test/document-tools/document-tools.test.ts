import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentTools } from '../../src/document-tools/document-tools.js';
import { makePdf, makeTempDir, PNG_1X1, writeFile } from '../fixtures/document-builders.js';
import { InMemoryServer } from '../support/in-memory.js';

type Result = {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

let server: InMemoryServer;
let cleanup: () => Promise<void>;
let dir: string;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  await writeFile(dir, 'manual.pdf', await makePdf(['Welcome', 'Installation steps', 'Calibrate the flux capacitor']));
  await writeFile(dir, 'long.txt', 'abcdefghij'.repeat(100));
  await writeFile(dir, 'logo.png', PNG_1X1);
  server = new InMemoryServer();
  server.registerFolder(dir);
  server.registerTool(createDocumentTools(server.documents));
  await server.start();
});

afterEach(async () => {
  await server.stop();
  await cleanup();
});

describe.each(['legacy', 'modern'] as const)('document tools (%s era)', (era) => {
  async function call(name: string, args: Record<string, unknown>): Promise<Result> {
    const client = await server.connect(era);
    try {
      return (await client.callTool({ name, arguments: args })) as Result;
    } finally {
      await client.close();
    }
  }

  it('lists search_documents with an output schema', async () => {
    const client = await server.connect(era);
    try {
      const { tools } = await client.listTools();
      const search = tools.find((tool) => tool.name === 'search_documents');
      expect(search?.outputSchema).toMatchObject({ type: 'object' });
      expect(tools.map((tool) => tool.name).sort()).toEqual(['list_documents', 'read_document', 'search_documents']);
    } finally {
      await client.close();
    }
  });

  it('search_documents returns ranked hits with URI, page and snippet', async () => {
    const result = await call('search_documents', { query: 'capacitor', limit: 5 });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { hits: Array<Record<string, unknown>>; totalMatches: number };
    expect(structured.totalMatches).toBe(1);
    expect(structured.hits[0]).toMatchObject({ name: 'manual.pdf', page: 3, pages: [3] });
    expect(structured.hits[0]?.uri).toMatch(/^file:\/\/.*manual\.pdf$/);
    expect(result.content[0]?.text).toMatch(/1\. manual\.pdf, page 3/);
    expect(result.content[0]?.text).toContain('Calibrate the flux capacitor');
  });

  it('search_documents reports no match and rejects an empty query', async () => {
    const none = await call('search_documents', { query: 'nonexistentword' });
    expect(none.content[0]?.text).toMatch(/No document matches "nonexistentword" \(searched 2 document\(s\)\)/);
    expect(none.structuredContent).toMatchObject({ hits: [], totalMatches: 0 });
    const empty = await call('search_documents', { query: '   ...' });
    expect(empty.isError).toBe(true);
    expect(empty.content[0]?.text).toMatch(/no words/);
    const badLimit = await call('search_documents', { query: 'x', limit: 500 });
    expect(badLimit.isError).toBe(true);
  });

  it('read_document without a range returns the whole content as before', async () => {
    const whole = await call('read_document', { uri: 'long.txt' });
    expect(whole.content).toEqual([{ type: 'text', text: 'abcdefghij'.repeat(100) }]);
    expect(whole.structuredContent).toBeUndefined();
  });

  it('read_document returns one PDF page and says what follows', async () => {
    const page = await call('read_document', { uri: 'manual.pdf', page: 2 });
    expect(page.content[1]?.text).toBe('--- page 2 ---\nInstallation steps');
    expect(page.content[0]?.text).toMatch(/page 2 of 3.*1 more page\(s\): call read_document with page=3/);
    expect(page.structuredContent).toMatchObject({ page: 2, totalPages: 3, scope: 'page', remainingChars: 0 });
  });

  it('read_document returns a window of characters and the offset to continue from', async () => {
    const part = await call('read_document', { uri: 'long.txt', offset: 990, length: 5 });
    expect(part.content[1]?.text).toBe('abcde');
    expect(part.content[0]?.text).toMatch(/characters 990-995 of 1,000.*5 characters remain.*offset=995/);
    expect(part.structuredContent).toMatchObject({ offset: 990, length: 5, remainingChars: 5, nextOffset: 995 });
    const last = await call('read_document', { uri: 'long.txt', offset: 995 });
    expect(last.content[0]?.text).toMatch(/end of the document/);
    expect(last.structuredContent).not.toHaveProperty('nextOffset');
  });

  it('read_document answers impossible ranges with an actionable isError result', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ uri: 'manual.pdf', page: 7 }, /Page 7 does not exist: this document has 3 page\(s\)/],
      [{ uri: 'long.txt', page: 1 }, /no pages.*offset\/length/],
      [{ uri: 'long.txt', offset: 5000 }, /Offset 5000 is past the end.*0 to 1000/],
      [{ uri: 'logo.png', offset: 1 }, /binary \(image\/png\).*without them/],
      [{ uri: 'long.txt', page: 0 }, /Invalid arguments/],
    ];
    for (const [args, message] of cases) {
      const result = await call('read_document', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(result.content[0]?.text).toMatch(message);
    }
  });
});
