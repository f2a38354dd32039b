import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import type { ResourceContext } from '../../src/resources/resource.js';
import { InMemoryServer } from '../support/in-memory.js';

const ERAS = ['legacy', 'modern'] as const;

describe.each(ERAS)('in-memory resources and templates over the %s era', (era) => {
  let dir: string;
  let server: InMemoryServer;
  let seen: ResourceContext | undefined;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'resources-'));
    writeFileSync(path.join(dir, 'doc.txt'), 'from disk');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => server?.stop());

  async function setUp(): Promise<Client> {
    server = new InMemoryServer();
    server.registerDocument(path.join(dir, 'doc.txt'));
    server.registerResource({
      uri: 'config://app',
      name: 'config',
      mimeType: 'application/json',
      read: (_uri, context) => ((seen = context), JSON.stringify({ debug: true })),
    });
    server.registerResource({
      uri: 'memo://logo',
      name: 'logo',
      mimeType: 'image/png',
      read: () => Buffer.from([1, 2]),
    });
    server.registerResource({ uri: 'notes://special', name: 'special', read: () => 'exact wins' });
    server.registerResourceTemplate({
      uriTemplate: 'notes://{name}',
      name: 'notes',
      description: 'A note',
      mimeType: 'text/markdown',
      complete: { name: ['todo', 'tomorrow', 'ideas'] },
      list: () => [{ uri: 'notes://todo', name: 'todo' }],
      read: (uri, { name }) => {
        if (name === 'user-error') throw new UserError('No such note, try "todo".');
        if (name === 'crash') throw new Error('backend down');
        if (name === 'gone') throw new ResourceNotFoundError(uri);
        return `# ${name}`;
      },
    });
    server.registerResourceTemplate({
      uriTemplate: 'broken://{id}',
      name: 'broken',
      list: () => Promise.reject(new Error('listing failed')),
      read: () => '',
    });
    await server.start();
    return server.connect(era);
  }

  it('lists documents, then fixed resources, then template listings (a failing list() is left out)', async () => {
    const client = await setUp();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      pathToFileURL(path.join(dir, 'doc.txt')).href,
      'config://app',
      'memo://logo',
      'notes://special',
      'notes://todo',
    ]);
    expect(resources[4]).toMatchObject({ name: 'todo', description: 'A note', mimeType: 'text/markdown' });
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'notes://{name}', name: 'notes', description: 'A note', mimeType: 'text/markdown' },
      { uriTemplate: 'broken://{id}', name: 'broken' },
    ]);
  });

  it('reads the exact URI first, then documents, then the first matching template', async () => {
    const client = await setUp();
    expect((await client.readResource({ uri: 'config://app' })).contents).toEqual([
      { uri: 'config://app', mimeType: 'application/json', text: '{"debug":true}' },
    ]);
    expect(seen).toMatchObject({ era, clientInfo: { name: 'unit' } });
    expect((await client.readResource({ uri: 'memo://logo' })).contents).toEqual([
      { uri: 'memo://logo', mimeType: 'image/png', blob: 'AQI=' },
    ]);
    expect((await client.readResource({ uri: 'notes://special' })).contents[0]).toMatchObject({ text: 'exact wins' });
    const doc = pathToFileURL(path.join(dir, 'doc.txt')).href;
    expect((await client.readResource({ uri: doc })).contents[0]).toMatchObject({ text: 'from disk' });
    expect((await client.readResource({ uri: 'notes://a%20b' })).contents).toEqual([
      { uri: 'notes://a%20b', mimeType: 'text/markdown', text: '# a b' },
    ]);
  });

  it('maps read errors: not found, UserError -> -32602 verbatim, others -> -32603 naming the URI', async () => {
    const client = await setUp();
    await expect(client.readResource({ uri: 'nothing://here' })).rejects.toThrow(/not found/i);
    await expect(client.readResource({ uri: 'notes://gone' })).rejects.toThrow(/not found/i);
    await expect(client.readResource({ uri: 'notes://user-error' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('No such note, try "todo".'),
    });
    await expect(client.readResource({ uri: 'notes://crash' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('Reading notes://crash failed: backend down'),
    });
    expect((await client.readResource({ uri: 'config://app' })).contents).toHaveLength(1);
  });

  it('completes template variables; a fixed URI completes to nothing; an unknown template is -32602', async () => {
    const client = await setUp();
    const ref = { type: 'ref/resource' as const, uri: 'notes://{name}' };
    expect((await client.complete({ ref, argument: { name: 'name', value: 'TO' } })).completion).toEqual({
      values: ['todo', 'tomorrow'],
      total: 2,
      hasMore: false,
    });
    const fixed = await client.complete({
      ref: { type: 'ref/resource', uri: 'config://app' },
      argument: { name: 'x', value: '' },
    });
    expect(fixed.completion.values).toEqual([]);
    await expect(
      client.complete({ ref: { type: 'ref/resource', uri: 'nope://{x}' }, argument: { name: 'x', value: '' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('registering or removing a resource or template after start sends one resources list_changed each', async () => {
    const client = await setUp();
    let changes = 0;
    client.setNotificationHandler('notifications/resources/list_changed', () => void (changes += 1));
    if (era === 'modern') await client.listen({ resourcesListChanged: true });
    server.registerResource({ uri: 'memo://late', name: 'late', read: () => 'late' });
    await expect.poll(() => changes, { timeout: 5_000 }).toBe(1);
    expect((await client.readResource({ uri: 'memo://late' })).contents[0]).toMatchObject({ text: 'late' });
    server.registerResourceTemplate({ uriTemplate: 'late://{id}', name: 'late', read: (_uri, { id }) => String(id) });
    await expect.poll(() => changes, { timeout: 5_000 }).toBe(2);
    expect(server.removeResource('memo://late')).toBe(true);
    expect(server.removeResourceTemplate('late://{id}')).toBe(true);
    expect(server.removeResource('memo://late')).toBe(false);
    await expect.poll(() => changes, { timeout: 5_000 }).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changes).toBe(4);
    await expect(client.readResource({ uri: 'late://1' })).rejects.toThrow(/not found/i);
  });
});

describe('BaseMcpServer.readResource (for tools embedding a resource)', () => {
  it('reads resources, templates and documents like resources/read; unknown URIs throw RESOURCE_NOT_FOUND', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'read-resource-'));
    const server = new InMemoryServer();
    try {
      writeFileSync(path.join(dir, 'a.txt'), 'file text');
      const { uri: fileUri } = server.registerDocument(path.join(dir, 'a.txt'));
      let seen: ResourceContext | undefined;
      server.registerResource({ uri: 'memo://x', name: 'x', read: (_uri, context) => ((seen = context), 'x') });
      server.registerResourceTemplate({
        uriTemplate: 'docs://{section}',
        name: 'docs',
        read: (_u, v) => `§${v.section}`,
      });
      expect(await server.readResource('memo://x')).toEqual([{ uri: 'memo://x', mimeType: 'text/plain', text: 'x' }]);
      expect(seen).toMatchObject({ requestId: 'local', era: 'legacy' });
      expect(seen?.signal.aborted).toBe(false);
      const callerContext = { ...seen!, requestId: 7, era: 'modern' as const };
      await server.readResource('memo://x', callerContext);
      expect(seen).toBe(callerContext);
      expect((await server.readResource('docs://intro'))[0]).toMatchObject({ text: '§intro' });
      expect((await server.readResource(fileUri))[0]).toMatchObject({ text: 'file text' });
      await expect(server.readResource('memo://missing')).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(ERAS)('non-ASCII literals in a resource template (#24 item 14), %s era', (era) => {
  let server: InMemoryServer | undefined;
  afterEach(async () => server?.stop());

  it('docs://café/{name} matches the percent-encoded docs://caf%C3%A9/x and the raw form, with the same value', async () => {
    server = new InMemoryServer();
    server.registerResourceTemplate({
      uriTemplate: 'docs://café/{name}',
      name: 'cafe',
      read: (_uri, variables) => `name=${String(variables.name)}`,
    });
    server.registerResourceTemplate({
      uriTemplate: 'memo://Notes/{id}/Grüße',
      name: 'greetings',
      read: (_uri, variables) => `id=${String(variables.id)}`,
    });
    const client = await server.connect(era);
    for (const uri of ['docs://caf%C3%A9/x', 'docs://café/x', 'docs://caf%c3%a9/x', 'DOCS://caf%C3%A9/x']) {
      expect((await client.readResource({ uri })).contents[0], uri).toMatchObject({ text: 'name=x' });
    }
    for (const uri of ['memo://notes/7/Gr%C3%BC%C3%9Fe', 'memo://Notes/7/Grüße']) {
      expect((await client.readResource({ uri })).contents[0], uri).toMatchObject({ text: 'id=7' });
    }
    // The listing keeps the template as it was registered.
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'docs://café/{name}',
      'memo://Notes/{id}/Grüße',
    ]);
  });
});
