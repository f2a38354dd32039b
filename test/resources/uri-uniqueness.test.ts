import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/documents/document-store.js';
import { DuplicateResourceError } from '../../src/errors.js';
import { InMemoryServer, silentLogger } from '../support/in-memory.js';

let dir: string;
let server: InMemoryServer;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'uri-uniqueness-'));
});
afterEach(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string, text = name) => {
  const full = path.join(dir, name);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
};
const resource = (uri: string) => ({ uri, name: 'memo', read: () => 'from the resource' });

describe('one URI, one resource, whatever the order of registration', () => {
  it('registerResource after registerDocument with the same URI throws, naming the URI', () => {
    server = new InMemoryServer();
    const { uri } = server.registerDocument(file('a.txt'));
    expect(() => server.registerResource(resource(uri))).toThrow(DuplicateResourceError);
    expect(() => server.registerResource(resource(uri))).toThrow(uri);
    expect(server.resources.list()).toEqual([]);
  });

  it('registerDocument after registerResource with the same URI throws and registers nothing', () => {
    server = new InMemoryServer();
    const target = file('b.txt');
    const uri = pathToFileURL(target).href;
    server.registerResource(resource(uri));
    expect(() => server.registerDocument(target)).toThrow(DuplicateResourceError);
    expect(() => server.registerDocument(target)).toThrow(uri);
    expect(server.documents.list()).toEqual([]);
  });

  it('a differently spelled file: URI of the same file still clashes', () => {
    server = new InMemoryServer();
    const target = file('with space.txt');
    server.registerResource(resource(`file://${target}`)); // unencoded space: same file
    expect(() => server.registerDocument(target)).toThrow(DuplicateResourceError);
  });

  it('registerFolder whose files include a resource URI throws and registers none of them', () => {
    server = new InMemoryServer();
    const root = path.join(dir, 'folder');
    file('folder/ok.md');
    const clash = file('folder/taken.md');
    server.registerResource(resource(pathToFileURL(clash).href));
    expect(() => server.registerFolder(root)).toThrow(DuplicateResourceError);
    expect(server.documents.list()).toEqual([]);
    expect(server.resources.listTemplates()).toEqual([]);
  });

  it('a removed resource frees its URI for a document, and registering the same file twice replaces it', () => {
    server = new InMemoryServer();
    const target = file('c.txt');
    const uri = pathToFileURL(target).href;
    server.registerResource(resource(uri));
    expect(server.removeResource(uri)).toBe(true);
    server.registerDocument(target);
    server.registerDocument({ path: target, name: 'renamed' });
    expect(server.documents.list().map((doc) => doc.name)).toEqual(['renamed']);
  });

  it("registerFolder over an app template with the folder's URI template throws before registering anything", () => {
    server = new InMemoryServer();
    const root = path.join(dir, 'tpl');
    file('tpl/x.md');
    const uriTemplate = `${pathToFileURL(root).href}/{+path}`;
    server.registerResourceTemplate({ uriTemplate, name: 'mine', read: () => 'x' });
    expect(() => server.registerFolder(root)).toThrow(DuplicateResourceError);
    expect(server.documents.list()).toEqual([]);
  });

  it('the same resource template twice throws, naming it', () => {
    server = new InMemoryServer();
    const template = { uriTemplate: 'memo://{id}', name: 'memos', read: () => 'x' };
    server.registerResourceTemplate(template);
    expect(() => server.registerResourceTemplate(template)).toThrow(/resource template.*memo:\/\/\{id\}/);
  });

  it('a file the watcher finds later under a resource URI is left out with one warning; the resource keeps it', async () => {
    const warnings: Array<{ uri?: string; err?: unknown }> = [];
    const logger = {
      ...(silentLogger() as object),
      warn: (fields: { uri?: string; err?: unknown }) => warnings.push(fields),
    };
    server = new InMemoryServer(undefined, { logger: logger as never, documents: new DocumentStore({ watch: true }) });
    const root = path.join(dir, 'live');
    file('live/first.md');
    server.registerFolder(root);
    await server.documents.watchReady();
    const takenUri = pathToFileURL(path.join(root, 'late.md')).href;
    server.registerResource(resource(takenUri));
    file('live/late.md', 'from the file');
    file('live/other.md');
    const deadline = Date.now() + 10_000;
    while (!server.documents.list().some((doc) => doc.name === 'other.md')) {
      if (Date.now() > deadline) throw new Error('the watcher did not add other.md within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(server.documents.list().map((doc) => doc.name)).toEqual(['first.md', 'other.md']);
    expect(await server.readResource(takenUri)).toMatchObject([{ text: 'from the resource' }]);
    file('live/again.md'); // another rescan: the skipped file is not warned about twice
    while (!server.documents.list().some((doc) => doc.name === 'again.md')) {
      if (Date.now() > deadline) throw new Error('the watcher did not add again.md within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(warnings.filter((warning) => warning.uri === takenUri)).toHaveLength(1);
    expect(warnings[0]?.err).toBeInstanceOf(DuplicateResourceError);
  });
});
