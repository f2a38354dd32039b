import { describe, expect, it } from 'vitest';
import { DuplicateResourceError, InvalidResourceError } from '../../src/errors.js';
import { toResourceContents } from '../../src/resources/resource-contents.js';
import { ResourceRegistry, type ResourceRegistryChange } from '../../src/resources/resource-registry.js';

const read = () => 'text';

describe('ResourceRegistry: fixed resources', () => {
  it('lists in registration order with only the given fields; the list is cached until a change', () => {
    const registry = new ResourceRegistry();
    registry.register({ uri: 'memo://b', name: 'b', read });
    const full = {
      uri: 'memo://a',
      name: 'a',
      title: 'A',
      description: 'first',
      mimeType: 'application/json',
      size: 12,
      annotations: { priority: 0.5 },
    };
    registry.register({ ...full, read });
    const list = registry.list();
    expect(list).toEqual([{ uri: 'memo://b', name: 'b' }, full]);
    expect(registry.list()).toBe(list);
    registry.remove('memo://b');
    expect(registry.list().map((entry) => entry.uri)).toEqual(['memo://a']);
  });

  it('rejects bad configurations with InvalidResourceError and duplicates with DuplicateResourceError', () => {
    const registry = new ResourceRegistry();
    expect(() => registry.register({ uri: 'relative/path', name: 'x', read })).toThrow(InvalidResourceError);
    expect(() => registry.register({ uri: 'memo://x', name: '', read })).toThrow(/non-empty name/);
    expect(() => registry.register({ uri: 'memo://x', name: 'x' } as never)).toThrow(/read\(\) function/);
    registry.register({ uri: 'memo://x', name: 'x', read });
    expect(() => registry.register({ uri: 'memo://x', name: 'again', read })).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_RESOURCE', uri: 'memo://x' }),
    );
    try {
      registry.register({ uri: 'nope', name: 'x', read });
    } catch (error) {
      expect((error as InvalidResourceError).code).toBe('INVALID_RESOURCE');
    }
  });

  it('emits one change per registration or removal, none for an unknown removal', () => {
    const registry = new ResourceRegistry();
    const changes: ResourceRegistryChange[] = [];
    const stop = registry.onChange((change) => changes.push(change));
    registry.register({ uri: 'memo://x', name: 'x', read });
    registry.registerTemplate({ uriTemplate: 'memo://{id}', name: 't', read });
    expect(registry.remove('memo://nope')).toBe(false);
    expect(registry.removeTemplate('memo://{nope}')).toBe(false);
    expect(registry.removeTemplate('memo://{id}')).toBe(true);
    stop();
    registry.remove('memo://x');
    expect(changes).toEqual([
      { kind: 'resource', type: 'added', uri: 'memo://x' },
      { kind: 'template', type: 'added', uri: 'memo://{id}' },
      { kind: 'template', type: 'removed', uri: 'memo://{id}' },
    ]);
  });
});

describe('ResourceRegistry: templates', () => {
  it('matches URIs (first registered wins) with percent-decoded variables', () => {
    const registry = new ResourceRegistry();
    registry.registerTemplate({ uriTemplate: 'notes://{folder}/{name}', name: 'notes', read });
    registry.registerTemplate({ uriTemplate: 'notes://{path}', name: 'fallback', read });
    const matched = registry.match('notes://my%20folder/a.md');
    expect(matched?.template.listed.name).toBe('notes');
    expect(matched?.variables).toEqual({ folder: 'my folder', name: 'a.md' });
    expect(registry.match('notes://top')?.template.listed.name).toBe('fallback');
    expect(registry.match('other://x')).toBeUndefined();
    expect(registry.match(`notes://${'x'.repeat(2_000_000)}`)).toBeUndefined();
    expect(registry.listTemplates()).toEqual([
      { uriTemplate: 'notes://{folder}/{name}', name: 'notes' },
      { uriTemplate: 'notes://{path}', name: 'fallback' },
    ]);
  });

  it('validates templates and their completions', async () => {
    const registry = new ResourceRegistry();
    expect(() => registry.registerTemplate({ uriTemplate: 'bad://{x', name: 'x', read })).toThrow(
      /not a valid RFC 6570 URI template/,
    );
    expect(() => registry.registerTemplate({ uriTemplate: 'fixed://x', name: 'x', read })).toThrow(
      /has no \{variable\}/,
    );
    expect(() =>
      registry.registerTemplate({ uriTemplate: 'a://{id}', name: 'x', read, complete: { idd: () => [] } }),
    ).toThrow(/"idd", which is not one of its variables/);
    const template = registry.registerTemplate({
      uriTemplate: 'a://{kind}/{id}',
      name: 'a',
      read,
      complete: { kind: ['Alpha', 'beta'], id: (value) => [`${value}1`] },
    });
    expect(await template.completer('kind')?.('a', {} as never)).toEqual(['Alpha']);
    expect(await template.completer('id')?.('x', {} as never)).toEqual(['x1']);
    expect(template.completer('other')).toBeUndefined();
    expect(() => registry.registerTemplate({ uriTemplate: 'a://{kind}/{id}', name: 'again', read })).toThrow(
      DuplicateResourceError,
    );
  });
});

describe('toResourceContents', () => {
  const uri = 'memo://x';
  it('accepts a string, bytes, items, arrays and full results, filling uri and mimeType', () => {
    expect(toResourceContents('hi', uri, undefined)).toEqual([{ uri, mimeType: 'text/plain', text: 'hi' }]);
    expect(toResourceContents('{}', uri, 'application/json')).toEqual([
      { uri, mimeType: 'application/json', text: '{}' },
    ]);
    expect(toResourceContents(new Uint8Array([1, 2, 3]), uri, undefined)).toEqual([
      { uri, mimeType: 'application/octet-stream', blob: 'AQID' },
    ]);
    expect(toResourceContents(Buffer.from('abc').subarray(1), uri, 'image/png')).toEqual([
      { uri, mimeType: 'image/png', blob: Buffer.from('bc').toString('base64') },
    ]);
    expect(toResourceContents({ text: 'a', _meta: { k: 1 } }, uri, undefined)).toEqual([
      { uri, mimeType: 'text/plain', text: 'a', _meta: { k: 1 } },
    ]);
    expect(
      toResourceContents(
        [
          { uri: 'memo://x/1', text: 'one' },
          { blob: new Uint8Array([255]), mimeType: 'image/gif' },
        ],
        uri,
        undefined,
      ),
    ).toEqual([
      { uri: 'memo://x/1', mimeType: 'text/plain', text: 'one' },
      { uri, mimeType: 'image/gif', blob: '/w==' },
    ]);
    expect(toResourceContents({ contents: [{ blob: 'AQID' }] }, uri, 'application/zip')).toEqual([
      { uri, mimeType: 'application/zip', blob: 'AQID' },
    ]);
  });

  it('throws a TypeError for anything else', () => {
    expect(() => toResourceContents(42 as never, uri, undefined)).toThrow(TypeError);
    expect(() => toResourceContents([{ nope: 1 }] as never, uri, undefined)).toThrow(/neither "text" nor "blob"/);
    expect(() => toResourceContents(null as never, uri, undefined)).toThrow(TypeError);
  });
});
