/**
 * The limits agree (#24 item 8), through the real CLI over HTTP and a v1 SDK client: a 19 MiB text file
 * (under the 20 MiB file limit, over the 10,000,000-character output limit) is readable in parts; a
 * 25 MiB file left out of the folder is named once in the banner and once in the log (not again on a
 * rescan); `--max-file-size` admits it; a bad limit value stops the CLI naming the flag.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../fixtures/document-builders.js';
import { connectClient, type TestClient } from '../support/clients.js';
import { failingCli, startCli, type CliServer } from './cli-process.js';

const MIB = 1024 * 1024;
let dir: string;
let cleanup: () => Promise<void>;

/** `mib` MiB of ASCII lines. */
function text(mib: number, word: string): string {
  const line = `${word} `.repeat(15).trimEnd() + '\n';
  return line.repeat(Math.ceil((mib * MIB) / line.length)).slice(0, mib * MIB);
}

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  await fs.writeFile(path.join(dir, 'big.txt'), text(19, 'big'));
  await fs.writeFile(path.join(dir, 'huge.txt'), text(25, 'huge'));
  await fs.writeFile(path.join(dir, 'small.md'), '# small\n');
}, 60_000);
afterAll(() => cleanup());

async function serve(args: readonly string[]): Promise<{ server: CliServer; client: TestClient }> {
  const server = await startCli([...args, dir]);
  const client = await connectClient('v1', new HttpV1(new URL(server.url)));
  return { server, client };
}

describe('the CLI with the default limits', () => {
  it('reads a 19 MiB text file in parts, and names the 25 MiB file it leaves out once', async () => {
    const { server, client } = await serve([]);
    try {
      const resources = await client.resources();
      expect(resources.map((r) => r.name).sort()).toEqual(['big.txt', 'small.md']);
      const banner = /skipped 1 file over 20 MiB: huge\.txt \(raise the limit with --max-file-size <mib>\)/;
      expect(server.stderr()).toMatch(banner);
      const logLines = server
        .stderr()
        .split('\n')
        .filter((line) => line.includes('huge.txt') && !banner.test(line));
      expect(logLines).toHaveLength(1);
      expect(logLines[0]).toContain('over the 20971520-byte file size limit');

      const big = resources.find((r) => r.name === 'big.txt')!;
      const first = (await client.readResource(big.uri)).contents[0] as {
        text: string;
        _meta?: Record<string, unknown>;
      };
      expect(first.text.startsWith('big big')).toBe(true);
      expect(first._meta?.['mcp-toolkit/range']).toMatchObject({ offset: 0, length: 100_000, totalChars: 19 * MIB });
      const tail = await client.callTool('read_document', { uri: 'big.txt', offset: 19 * MIB - 64 });
      expect(tail.isError).toBeFalsy();
      expect(tail.content[0]?.text).toContain('This is the end of the document.');

      // A rescan (a file added) neither names huge.txt again nor lists it.
      await fs.writeFile(path.join(dir, 'added.md'), '# added\n');
      await waitFor(async () => (await client.resources()).some((r) => r.name === 'added.md'));
      expect(
        server
          .stderr()
          .split('\n')
          .filter((line) => line.includes('huge.txt')),
      ).toHaveLength(2);
    } finally {
      await client.close();
      await fs.rm(path.join(dir, 'added.md'), { force: true });
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});

describe('--max-file-size', () => {
  it('admits the 25 MiB file, readable in parts, and the banner names nothing left out', async () => {
    const { server, client } = await serve(['--max-file-size', '30', '--no-watch']);
    try {
      const names = (await client.resources()).map((r) => r.name).sort();
      expect(names).toEqual(['big.txt', 'huge.txt', 'small.md']);
      expect(server.stderr()).not.toContain('skipped');
      const part = await client.callTool('read_document', { uri: 'huge.txt', offset: 25 * MIB - 100 });
      expect(part.isError).toBeFalsy();
      expect(part.content[1]?.text).toContain('huge');
    } finally {
      await client.close();
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it.each([
    ['--max-file-size', '0', 'a positive integer'],
    ['--max-inflated-size', 'lots', 'a positive integer'],
    ['--cache-size', '-1', 'a non-negative integer'],
    ['--list-page-size', '2.5', 'a positive integer'],
  ])('%s %s stops the CLI with a message naming the flag', async (flag, value, what) => {
    const { code, stderr } = await failingCli(['--stdio', flag, value, dir]);
    expect(code).toBe(1);
    expect(stderr).toContain(`${flag} must be ${what}, got "${value}"`);
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
