import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryServer } from '../support/in-memory.js';

let server: InMemoryServer;
afterEach(() => server?.stop());

describe.each(['legacy', 'modern'] as const)('resources/list pagination on the %s era', (era) => {
  it('pages with an opaque cursor until every resource was listed once', async () => {
    server = new InMemoryServer(undefined, { resourcePageSize: 100 });
    for (let i = 0; i < 250; i += 1) {
      server.registerResource({ uri: `memo://item/${i}`, name: `item ${i}`, read: () => `item ${i}` });
    }
    const client = await server.connect(era);
    const first = await client.request({ method: 'resources/list', params: {} }); // one page, no auto-walk
    expect(first.resources).toHaveLength(100);
    expect(first.nextCursor).toEqual(expect.any(String));
    const all = (await client.listResources()).resources; // the v2 client follows nextCursor
    expect(all.map((r) => r.uri)).toEqual(Array.from({ length: 250 }, (_, i) => `memo://item/${i}`));
    const second = await client.listResources({ cursor: first.nextCursor });
    expect(second.resources[0]?.uri).toBe('memo://item/100');
    await expect(client.listResources({ cursor: 'bm9wZQ' })).rejects.toThrow(/Invalid cursor/);
  });
});
