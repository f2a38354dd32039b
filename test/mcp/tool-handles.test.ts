import { afterEach, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/registry/tool.js';
import { ToolPackage } from '../../src/registry/tool-package.js';
import { Counter } from '../support/clients.js';
import { InMemoryServer } from '../support/in-memory.js';

const tool = (name: string) => defineTool({ name, execute: () => name });
const QUIET_MS = 200;
const settle = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

let server: InMemoryServer;
afterEach(async () => server?.stop());

/** A v2 client in `era` counting `tools/list_changed` (on 2026-07-28 through its listen stream). */
async function connected(era: 'legacy' | 'modern') {
  const client = await server.connect(era);
  const changed = new Counter();
  client.setNotificationHandler('notifications/tools/list_changed', async () => changed.bump());
  if (era === 'modern') await client.listen({ toolsListChanged: true });
  const names = async () => (await client.listTools()).tools.map((t) => t.name);
  return { client, changed, names };
}

describe('registerTool handles', () => {
  it('a lone tool: name, state, enable/disable/remove; inert after removal', async () => {
    server = new InMemoryServer();
    const handle = server.registerTool(tool('solo'));
    expect(handle.name).toBe('solo');
    expect(handle.names).toEqual(['solo']);
    expect(handle.state).toBe('enabled');
    handle.disable();
    expect([handle.state, handle.enabled, server.tools.isDisabled('solo')]).toEqual(['disabled', false, true]);
    handle.enable();
    expect(handle.enabled).toBe(true);
    expect(handle.remove()).toBe(true);
    expect([handle.state, handle.removed, handle.enabled]).toEqual(['removed', true, false]);
    expect(server.tools.get('solo')).toBeUndefined();
    // Inert: no throw, no effect on the disabled set or on a new tool of the same name.
    const again = server.registerTool(tool('solo'));
    expect(() => handle.disable()).not.toThrow();
    expect(handle.remove()).toBe(false);
    expect(server.tools.isDisabled('solo')).toBe(false);
    expect(again.state).toBe('enabled');
    expect(server.removeTool('solo')).toBe(true);
    expect(again.removed).toBe(true);
    expect(server.removeTool('solo')).toBe(false);
  });

  it('a package: named rows in getToolStates, mixed state, removal of part then the rest', async () => {
    server = new InMemoryServer();
    const pkg = new ToolPackage([tool('p1'), tool('p2')], { name: 'pair', instructions: 'pair tools' });
    const handle = server.registerTool(pkg);
    server.registerTool(tool('lone'));
    expect(handle.name).toBe('pair');
    expect(server.getToolStates().map((row) => [row.tool.name, row.packageName, row.enabled])).toEqual([
      ['p1', 'pair', true],
      ['p2', 'pair', true],
      ['lone', undefined, true],
    ]);
    server.disableTool('p1');
    expect(handle.state).toBe('mixed');
    expect(server.removeTool('p1')).toBe(true);
    expect(handle.state).toBe('enabled'); // p2 remains, enabled
    expect(handle.names).toEqual(['p1', 'p2']); // fixed at registration
    expect(server.removeTool(pkg)).toBe(true);
    expect(handle.removed).toBe(true);
    expect(server.getToolStates().map((row) => row.tool.name)).toEqual(['lone']);
  });

  it.each(['legacy', 'modern'] as const)(
    'on the %s era every client is told exactly once per handle call, and not for no-ops',
    async (era) => {
      server = new InMemoryServer();
      await server.start();
      const [first, second] = [await connected(era), await connected(era)];
      const handle = server.registerTool(new ToolPackage([tool('a'), tool('b')], { name: 'ab' }));
      await Promise.all([first.changed.waitFor(1), second.changed.waitFor(1)]);
      handle.disable(); // two tools, one change
      await Promise.all([first.changed.waitFor(2), second.changed.waitFor(2)]);
      expect(await first.names()).toEqual([]);
      handle.disable(); // nothing to change
      handle.enable();
      await Promise.all([first.changed.waitFor(3), second.changed.waitFor(3)]);
      expect(handle.remove()).toBe(true);
      await Promise.all([first.changed.waitFor(4), second.changed.waitFor(4)]);
      expect(await second.names()).toEqual([]);
      handle.enable(); // inert
      handle.remove();
      await settle();
      expect([first.changed.count, second.changed.count]).toEqual([4, 4]);
    },
  );

  it('removing only disabled tools sends nothing (the listed tools did not change)', async () => {
    server = new InMemoryServer();
    await server.start();
    const { changed } = await connected('legacy');
    server.registerTool(tool('hidden'));
    await changed.waitFor(1);
    server.disableTool('hidden');
    await changed.waitFor(2);
    expect(server.removeTool('hidden')).toBe(true);
    await settle();
    expect(changed.count).toBe(2);
    expect(server.tools.disabledNames()).toEqual(['hidden']); // a preference, kept for a later registration
  });

  it('emits toolRemoved for each removed tool', () => {
    server = new InMemoryServer();
    const removed: string[] = [];
    server.events.on('toolRemoved', ({ tool: t }) => removed.push(t.name));
    server.registerTool(new ToolPackage([tool('x'), tool('y')])).remove();
    expect(removed).toEqual(['x', 'y']);
  });
});

describe('read-only registries on the server', () => {
  it('server.tools, prompts, resources and documents read but cannot be written', () => {
    server = new InMemoryServer();
    server.registerTool(tool('t'));
    expect(server.tools.get('t')?.name).toBe('t');
    expect(server.tools.size).toBe(1);
    for (const view of [server.tools, server.prompts, server.resources, server.documents]) {
      expect(Object.isFrozen(view)).toBe(true);
      for (const writer of [
        'register',
        'registerTemplate',
        'registerDocument',
        'registerFolder',
        'remove',
        'setDisabled',
      ]) {
        expect((view as unknown as Record<string, unknown>)[writer]).toBeUndefined();
      }
    }
  });
});
