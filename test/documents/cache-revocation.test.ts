// #17 item 15: a file made unreadable after it was read once is never served from the conversion cache.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConvertedContent, Converter, ConverterInput } from '../../src/converters/index.js';
import { DocumentStore } from '../../src/documents/index.js';

let dir: string;
let store: DocumentStore;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cache-revocation-'));
  store = new DocumentStore();
});
afterEach(async () => {
  await store.close();
  await fs.rm(dir, { recursive: true, force: true });
});

function countingConverter(): Converter & { calls: number } {
  return {
    name: 'counting',
    mimeTypes: ['text/markdown'],
    calls: 0,
    async convert(input: ConverterInput): Promise<ConvertedContent> {
      this.calls++;
      return { kind: 'text', text: new TextDecoder().decode(input.bytes), mimeType: 'text/markdown' };
    },
  };
}

/** Runs `script` (an ES module using the built `mcp-toolkit/documents` entry as `toolkit`) as an unprivileged user; its stdout. */
function runUnprivileged(script: string, timeoutMs = 15_000): Promise<string> {
  const toolkit = pathToFileURL(path.resolve('dist/public/documents.js')).href;
  const source = `import * as toolkit from ${JSON.stringify(toolkit)};\n${script}`;
  const root = process.getuid?.() === 0;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
      ...(root && { uid: 65534, gid: 65534 }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`timed out; stderr: ${err}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`exit ${code}; stderr: ${err}`));
    });
  });
}

describe('DocumentStore.read: revoked access', () => {
  it('re-checks a cached file after chmod: the cached conversion is not reused', async () => {
    const counting = countingConverter();
    store.converters.register(counting);
    const file = path.join(dir, 'a.md');
    await fs.writeFile(file, 'secret');
    const { uri } = store.registerDocument(file);
    await store.read(uri);
    await store.read(uri);
    expect(counting.calls).toBe(1);
    await fs.chmod(file, 0o000);
    // root may still read it (and does, afresh); anyone else gets the read error, as on a first read.
    const second = await store.read(uri).then(
      () => 'read',
      () => 'refused',
    );
    expect(second).toBe(process.getuid?.() === 0 ? 'read' : 'refused');
    if (second === 'read') expect(counting.calls).toBe(2);
  });

  it('an unprivileged process is refused once the file is chmod 000, though it was cached', async () => {
    await fs.chmod(dir, 0o777);
    const script = `
      import fs from 'node:fs/promises';
      const file = ${JSON.stringify(path.join(dir, 'b.md'))};
      await fs.writeFile(file, 'top secret');
      const store = new toolkit.DocumentStore();
      const { uri } = store.registerDocument(file);
      const first = await store.read(uri);
      await fs.chmod(file, 0o000);
      const second = await store.read(uri).then((c) => 'served: ' + c[0].text, (e) => 'refused: ' + e.message);
      await store.close();
      console.log(JSON.stringify({ first: first[0].text, second }));
    `;
    const result = JSON.parse(await runUnprivileged(script)) as { first: string; second: string };
    expect(result.first).toBe('top secret');
    expect(result.second).toMatch(/^refused: .*(EACCES|permission denied)/i);
    expect(result.second).not.toContain('top secret');
  });
});
