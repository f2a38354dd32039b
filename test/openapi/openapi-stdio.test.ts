// Items 2 and 3 of #29 as real clients meet them: a stdio child process built on the packaged
// dist/ serving Petstore tools, ArkType and Valibot tools and a bare image, driven by the v1 SDK
// client (the stand-in for today's desktop clients) and the v2 client in both eras.
import { fileURLToPath } from 'node:url';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { CLIENT_KINDS, connectClient } from '../support/clients.js';
import { PNG } from '../support/media.js';
import { PETSTORE_OPERATIONS, PETSTORE_SPEC, petstoreSuite } from '../support/petstore-server.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/openapi-stdio-fixture.mjs', import.meta.url));
const suite = petstoreSuite();

describe.each(CLIENT_KINDS)('OpenAPI and Standard Schema tools over stdio (%s client)', (kind) => {
  it('lists and calls them', async () => {
    const args = [FIXTURE, PETSTORE_SPEC, `${suite.rest.origin}/v2`];
    const transport =
      kind === 'v1'
        ? new StdioV1({ command: process.execPath, args, stderr: 'pipe' })
        : new StdioV2({ command: process.execPath, args, stderr: 'pipe' });
    const client = await connectClient(kind, transport);
    try {
      // The pet-tagged operations come first, in document order.
      expect(await client.toolNames()).toEqual([
        ...PETSTORE_OPERATIONS.slice(0, 8),
        'ark_sum',
        'valibot_greet',
        'pixel',
      ]);
      const pet = await client.callTool('getPetById', { petId: 41 });
      expect(pet.structuredContent).toMatchObject({ id: 41 });
      expect(suite.rest.last()).toMatchObject({ method: 'GET', path: '/v2/pet/41' });

      expect((await client.callTool('ark_sum', { values: [1, 2, 3] })).structuredContent).toEqual({ sum: 6 });
      const badArk = await client.callTool('ark_sum', { values: 'x' });
      expect(badArk.isError).toBe(true);
      expect(badArk.content[0]?.text).toMatch(/^Invalid arguments for tool "ark_sum": values: /);
      expect((await client.callTool('valibot_greet', { name: 'Ada' })).structuredContent).toEqual({
        greeting: 'Hello, Ada!',
      });
      expect((await client.callTool('valibot_greet', { name: '' })).content[0]?.text).toMatch(
        /^Invalid arguments for tool "valibot_greet": name: /,
      );
      expect((await client.callTool('pixel')).content).toEqual([
        { type: 'image', mimeType: 'image/png', data: PNG.toString('base64') },
      ]);
    } finally {
      await client.close();
    }
  });
});
