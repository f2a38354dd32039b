// The folder watcher is a dist/lazy/ entry loaded with the first watched path. When it cannot be loaded (a broken
// install, or dist/ replaced under a running server), reads stay right, a process warning says so, and neither
// watchReady() nor close() fails (stop() used to reject with the load error).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.doUnmock('../../src/documents/document-watcher.js');
  vi.resetModules();
});

describe('a document store whose watcher cannot be loaded', () => {
  it('reads, warns once per failed load, and closes cleanly', async () => {
    vi.resetModules();
    vi.doMock('../../src/documents/document-watcher.js', () => {
      throw new Error('Cannot find module dist/lazy/document-watcher.js');
    });
    const warnings: Array<{ code?: string; message: string }> = [];
    const onWarning = (warning: Error & { code?: string }) => warnings.push(warning);
    process.on('warning', onWarning);
    const folder = mkdtempSync(join(tmpdir(), 'watcher-unavailable-'));
    try {
      writeFileSync(join(folder, 'note.md'), '# Note\n\nplain words\n');
      const { DocumentStore } = await import('../../src/documents/document-store.js');
      const store = new DocumentStore();
      const [entry] = store.registerFolder(folder);
      await store.watchReady();
      const [content] = await store.read(entry!.uri);
      expect(content && 'text' in content ? content.text : '').toContain('plain words');
      await new Promise((resolve) => setTimeout(resolve, 50)); // warnings are emitted on the next tick
      expect(warnings.map((warning) => warning.code)).toContain('MCP_TOOLKIT_WATCHER_UNAVAILABLE');
      expect(warnings.find((warning) => warning.code === 'MCP_TOOLKIT_WATCHER_UNAVAILABLE')?.message).toMatch(
        /documents are not watched: .*reads still work/,
      );
      await expect(store.close()).resolves.toBeUndefined();
    } finally {
      process.off('warning', onWarning);
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
