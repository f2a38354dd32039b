import { afterEach, describe, expect, it } from 'vitest';
import { createDocumentTools } from '../../src/document-tools/document-tools.js';
import { InMemoryServer } from '../support/in-memory.js';

/** Every object node of a JSON Schema, with its path. */
function objectNodes(schema: unknown, path = '$'): Array<{ path: string; node: Record<string, unknown> }> {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const own = node.type === 'object' ? [{ path, node }] : [];
  const children = Object.entries(node).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? objectNodes(value, `${path}.${key}`) : [],
  );
  return [...own, ...children];
}

let server: InMemoryServer | undefined;
afterEach(async () => {
  await server?.stop();
});

// OpenAI's strict function mode takes a schema as it is only when every object is closed
// (`additionalProperties: false`); otherwise clients fall back to non-strict calls.
describe('built-in tool schemas as strict function-calling clients read them', () => {
  it.each(['legacy', 'modern'] as const)(
    'every object in every listed input schema is closed (%s era)',
    async (era) => {
      server = new InMemoryServer();
      server.registerTool(createDocumentTools(server.documents));
      await server.start();
      const client = await server.connect(era);
      const { tools } = await client.listTools();
      await client.close();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['list_documents', 'read_document', 'search_documents']);
      for (const tool of tools) {
        for (const { path, node } of objectNodes(tool.inputSchema)) {
          expect({ tool: tool.name, path, additionalProperties: node.additionalProperties }).toEqual({
            tool: tool.name,
            path,
            additionalProperties: false,
          });
        }
      }
      expect(tools.find((tool) => tool.name === 'list_documents')?.inputSchema).toMatchObject({
        type: 'object',
        properties: { cursor: { type: 'string' }, limit: { type: 'integer', minimum: 1, maximum: 100 } },
        additionalProperties: false,
      });
    },
  );

  it('a closed built-in schema refuses unknown arguments with a message naming them', async () => {
    server = new InMemoryServer();
    server.registerTool(createDocumentTools(server.documents));
    await server.start();
    const client = await server.connect('legacy');
    const result = (await client.callTool({ name: 'search_documents', arguments: { query: 'x', sort: 'date' } })) as {
      isError?: boolean;
      content: Array<{ text?: string }>;
    };
    await client.close();
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/sort/);
  });
});
