/**
 * `createDocumentTools({ indexInBackground: true })`: the index builds at start, and a `search_documents`
 * call made while it builds answers within `searchWaitMs` from what is indexed, saying how much is pending.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createDocumentTools } from '../../src/document-tools/document-tools.js';
import { makeTempDir, writeFile } from '../fixtures/document-builders.js';
import { InMemoryServer } from '../support/in-memory.js';
import { recordingView, until } from '../documents/store-harness.js';

let server: InMemoryServer;
let cleanup: () => Promise<void>;
let release = (): void => undefined;

beforeEach(async () => {
  let dir: string;
  ({ dir, cleanup } = await makeTempDir());
  for (let i = 0; i < 5; i += 1) await writeFile(dir, `note-${i}.md`, `note ${i} about granite`);
  server = new InMemoryServer();
  server.registerFolder(dir);
});

afterEach(async () => {
  release();
  await server.stop();
  await cleanup();
});

type Structured = { totalMatches: number; indexedDocuments: number; pendingDocuments: number };

it('answers from the part indexed so far, says so, and covers everything once the build is done', async () => {
  const { view, reads, hold } = recordingView(server.documents);
  release = hold();
  server.registerTool(createDocumentTools(view, { indexInBackground: true, searchWaitMs: 100 }));
  await server.start();
  await until(() => reads.length > 0, reads); // the build started without any search
  const client = await server.connect('modern');
  try {
    const partial = await client.callTool({ name: 'search_documents', arguments: { query: 'granite' } });
    expect(partial.structuredContent).toMatchObject({ totalMatches: 0, indexedDocuments: 0, pendingDocuments: 5 });
    expect((partial.content as Array<{ text: string }>)[0]?.text).toMatch(
      /searched 0 document\(s\); 5 more are still being indexed and were not searched: search again shortly/,
    );
    release();
    let full: Structured | undefined;
    for (const deadline = Date.now() + 5000; full?.pendingDocuments !== 0 && Date.now() < deadline;) {
      const result = await client.callTool({ name: 'search_documents', arguments: { query: 'granite' } });
      full = result.structuredContent as Structured;
    }
    expect(full).toMatchObject({ totalMatches: 5, indexedDocuments: 5, pendingDocuments: 0 });
  } finally {
    await client.close();
  }
});
