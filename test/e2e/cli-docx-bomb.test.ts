/**
 * A small DOCX bomb must not kill the server (#24 item 7), through the real CLI over HTTP and a v1 SDK
 * client. The bomb (built here with fflate: about 1.2 MiB on disk, `word/document.xml` inflating to
 * 300 MiB) is read with `--conversion-heap 128`:
 * - with the default inflated-size limit it is refused (`inflates past the limit`) before it is inflated;
 * - with that limit raised past the bomb, the conversion process dies of its heap: the read answers the
 *   heap limit and the server keeps serving.
 * In both, the CLI process's own resident memory (/proc/<pid>/status, sampled every 25 ms during the read)
 * grows by less than 100 MiB.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBombDocx, makeTempDir } from '../fixtures/document-builders.js';
import { connectClient } from '../support/clients.js';
import { startCli } from './cli-process.js';

const RSS_GROWTH_MIB = 100;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  await fs.writeFile(path.join(dir, 'bomb.docx'), makeBombDocx(300));
  await fs.writeFile(path.join(dir, 'note.md'), '# still here\n');
}, 60_000);
afterAll(() => cleanup());

/** Reads the bomb with these flags; returns the error message, the RSS before and at peak, and the server. */
async function readBomb(flags: readonly string[]) {
  const server = await startCli([...flags, '--no-watch', dir], { MCP_TOOLKIT_LOG_LEVEL: 'warn' });
  const client = await connectClient('v1', new HttpV1(new URL(server.url)));
  const resources = await client.resources();
  const uri = (name: string) => resources.find((r) => r.name === name)!.uri;
  // Warm the read path with a small file first, so the baseline includes the loaded modules.
  await client.readResource(uri('note.md'));
  const before = server.rssMiB();
  let peak = before;
  const sampler = setInterval(() => {
    if (server.child.exitCode === null) peak = Math.max(peak, server.rssMiB());
  }, 25);
  let message = '';
  try {
    await client.readResource(uri('bomb.docx'));
  } catch (error) {
    message = (error as Error).message;
  } finally {
    clearInterval(sampler);
  }
  return { server, client, message, before, peak, note: () => client.readResource(uri('note.md')) };
}

describe('a DOCX bomb read through the CLI with --conversion-heap 128', () => {
  it('is refused before it is inflated, and the server stays small and serving', async () => {
    const { server, client, message, before, peak, note } = await readBomb(['--conversion-heap', '128']);
    try {
      expect(message).toMatch(/bomb\.docx: its archive inflates past the limit of 104,857,600 bytes \(100 MiB\)/);
      expect(peak - before, `RSS ${before.toFixed(0)} -> ${peak.toFixed(0)} MiB`).toBeLessThan(RSS_GROWTH_MIB);
      expect(((await note()).contents[0] as { text: string }).text).toContain('still here');
      expect(server.child.exitCode).toBeNull();
    } finally {
      await client.close();
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it('survives its conversion process dying of its heap (inflated-size limit raised past the bomb)', async () => {
    const { server, client, message, before, peak, note } = await readBomb([
      '--conversion-heap',
      '128',
      '--max-inflated-size',
      '1000',
      // Heap death must come before the time limit, also on a loaded machine (default 30 s; the
      // client's own request timeout is 60 s).
      '--conversion-timeout',
      '55000',
    ]);
    try {
      expect(message).toMatch(/bomb\.docx: it ran out of the converter's heap limit of 128 MiB/);
      expect(peak - before, `RSS ${before.toFixed(0)} -> ${peak.toFixed(0)} MiB`).toBeLessThan(RSS_GROWTH_MIB);
      expect(server.child.exitCode).toBeNull();
      expect(((await note()).contents[0] as { text: string }).text).toContain('still here');
      expect(server.stderr()).not.toMatch(/mcp-toolkit: .*exit/);
    } finally {
      await client.close();
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);
});
