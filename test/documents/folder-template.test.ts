import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryServer } from '../support/in-memory.js';

let dir: string;
let server: InMemoryServer;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'folder-tpl-')));
  mkdirSync(path.join(dir, 'guides'));
  writeFileSync(path.join(dir, 'guides', 'Setup.md'), '# Setup');
  writeFileSync(path.join(dir, 'guides', 'usage.md'), '# Usage');
  writeFileSync(path.join(dir, 'notes.txt'), 'notes');
});
afterEach(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['legacy', 'modern'] as const)('folder resource template on the %s era', (era) => {
  it('lists a template per folder, completes paths, reads documents and nothing else', async () => {
    server = new InMemoryServer();
    server.registerFolder(dir);
    server.registerFolder(dir); // once per folder, however often it is registered
    const client = await server.connect(era);
    const base = pathToFileURL(dir).href;
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([`${base}/{+path}`]);

    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: `${base}/{+path}` },
      argument: { name: 'path', value: 'guides/s' },
    });
    expect(completion.completion.values).toEqual(['guides/Setup.md']);

    const read = await client.readResource({ uri: `${base}/guides/usage.md` });
    expect(read.contents[0]).toMatchObject({ text: '# Usage' });
    await expect(client.readResource({ uri: `${base}/../etc/passwd` })).rejects.toThrow(/not found/i);
    await expect(client.readResource({ uri: `${base}/unregistered.bin` })).rejects.toThrow(
      /not a document of the folder/,
    );
  });
});

describe('resource URIs are unique across documents and resources', () => {
  it('refuses an in-memory resource at the URI of a registered document', () => {
    server = new InMemoryServer();
    const [doc] = server.registerFolder(dir);
    expect(() => server.registerResource({ uri: doc!.uri, name: 'shadow', read: () => 'x' })).toThrow(
      /already registered/,
    );
  });
});

describe('a folder registered empty and reached through a symlink', () => {
  it('gets a template on the same root the store uses, so files added later complete', async () => {
    const link = path.join(mkdtempSync(path.join(os.tmpdir(), 'folder-link-')), 'docs');
    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    symlinkSync(empty, link);
    server = new InMemoryServer();
    expect(server.registerFolder(link)).toEqual([]);
    writeFileSync(path.join(empty, 'later.md'), '# later');
    server.registerFolder(link); // rescans; the template is not registered twice
    const client = await server.connect('legacy');
    const template = `${pathToFileURL(link).href}/{+path}`;
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([template]);
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: template },
      argument: { name: 'path', value: 'la' },
    });
    expect(completion.completion.values).toEqual(['later.md']);
  });
});
