/**
 * `list_documents` on a big folder (#24 item 9): 20,000 files used to come back as one 2.7-million-character
 * result. Through a real client (in-memory transport, both eras) each call now answers one page of at most
 * `listPageSize` documents (default 100) with the total and a `nextCursor`, the text stays small and points
 * to the next page and to `search_documents`, and following the cursors lists every document exactly once.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDocumentTools } from '../../src/document-tools/document-tools.js';
import { makeTempDir } from '../fixtures/document-builders.js';
import { InMemoryServer } from '../support/in-memory.js';

const FILES = 20_000;

type Result = {
  content: Array<{ type: string; text?: string }>;
  structuredContent?: {
    documents: Array<{ uri: string; name: string }>;
    total: number;
    offset: number;
    nextCursor?: string;
  };
  isError?: boolean;
};

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  for (let folder = 0; folder < 20; folder++) {
    const sub = path.join(dir, `folder-${String(folder).padStart(2, '0')}`);
    await fs.mkdir(sub);
    await Promise.all(
      Array.from({ length: FILES / 20 }, (_, i) =>
        fs.writeFile(path.join(sub, `note-${String(i).padStart(4, '0')}.md`), `# note ${folder}/${i}\n`),
      ),
    );
  }
}, 120_000);
afterAll(() => cleanup());

describe.each(['legacy', 'modern'] as const)(
  'list_documents on %s files (%s era)'.replace('%s files', `${FILES}`),
  (era) => {
    it('answers pages of 100 with the total, a cursor and a hint, and the cursors reach every document once', async () => {
      const server = new InMemoryServer();
      server.registerFolder(dir);
      server.registerTool(createDocumentTools(server.documents));
      await server.start();
      const client = await server.connect(era);
      try {
        const call = async (args: Record<string, unknown>) =>
          (await client.callTool({ name: 'list_documents', arguments: args })) as Result;
        const first = await call({});
        expect(first.isError).toBeFalsy();
        const text = first.content.map((part) => part.text ?? '').join('');
        expect(text.length).toBeLessThan(30_000);
        expect(text).toContain('Documents 1-100 of 20,000.');
        expect(text).toContain('search_documents');
        expect(first.structuredContent).toMatchObject({ total: FILES, offset: 0, nextCursor: expect.any(String) });
        expect(first.structuredContent?.documents).toHaveLength(100);
        expect(text).toContain(`cursor="${first.structuredContent?.nextCursor}"`);

        const seen = new Set<string>();
        let cursor: string | undefined;
        let calls = 0;
        do {
          const page = await call(cursor === undefined ? {} : { cursor });
          for (const doc of page.structuredContent?.documents ?? []) seen.add(doc.uri);
          cursor = page.structuredContent?.nextCursor;
          calls += 1;
        } while (cursor !== undefined && calls < 1000);
        expect(calls).toBe(FILES / 100);
        expect(seen.size).toBe(FILES);

        const small = await call({ limit: 5, cursor: 'p19998' });
        expect(small.structuredContent?.documents.map((doc) => doc.name)).toEqual([
          'folder-19/note-0998.md',
          'folder-19/note-0999.md',
        ]);
        expect(small.structuredContent?.nextCursor).toBeUndefined();

        const tooMany = await call({ limit: 101 });
        expect(tooMany.isError).toBe(true);
        const bad = await call({ cursor: 'nonsense' });
        expect(bad.isError).toBe(true);
        expect(bad.content[0]?.text).toContain('nextCursor');
      } finally {
        await client.close();
        await server.stop();
      }
    }, 120_000);
  },
);

describe('listPageSize', () => {
  it('sets the page size, and a page of long entries ends before 50,000 characters', async () => {
    const server = new InMemoryServer();
    server.registerFolder({ path: dir, description: 'd'.repeat(2000) });
    server.registerTool(createDocumentTools(server.documents, { listPageSize: 500 }));
    await server.start();
    const client = await server.connect('modern');
    try {
      const page = (await client.callTool({ name: 'list_documents', arguments: {} })) as Result;
      const text = page.content.map((part) => part.text ?? '').join('');
      expect(text.length).toBeLessThan(52_000);
      const listed = page.structuredContent?.documents.length ?? 0;
      expect(listed).toBeGreaterThan(10);
      expect(listed).toBeLessThan(500);
      expect(page.structuredContent?.nextCursor).toBe(`p${listed}`);
    } finally {
      await client.close();
      await server.stop();
    }
  }, 120_000);
});
