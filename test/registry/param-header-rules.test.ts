// #24 item 12: tools whose x-mcp-header annotations break the 2026-07-28 rules (MCP 2026-07-28
// Streamable HTTP, "Custom Headers from Tool Parameters") are refused at registration, naming the
// tool, the property and the rule; 2026-07-28 clients would otherwise drop them from tools/list.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidToolError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/tool.js';
import { InMemoryServer } from '../support/in-memory.js';

const tool = (name: string, inputSchema: Record<string, unknown> | z.ZodType) =>
  defineTool({ name, inputSchema: inputSchema as never, execute: () => 'ok' });
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });

const BAD: Array<[string, Record<string, unknown> | z.ZodType, RegExp]> = [
  [
    'space',
    object({ region: { type: 'string', 'x-mcp-header': 'Region Name' } }),
    /property "region".*not an HTTP token/,
  ],
  [
    'crlf',
    object({ region: { type: 'string', 'x-mcp-header': 'Region\r\nX-Evil' } }),
    /property "region".*not an HTTP token/,
  ],
  [
    'case_duplicate',
    object({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'region' } }),
    /property "b".*repeats "Region".*unique ignoring case/,
  ],
  ['empty', object({ region: { type: 'string', 'x-mcp-header': '' } }), /property "region".*non-empty string/],
  [
    'on_object',
    object({ filter: { type: 'object', 'x-mcp-header': 'Filter', properties: {} } }),
    /property "filter".*type "object".*only string, integer and boolean/,
  ],
  [
    'in_array',
    object({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
    /property "list.<items>".*reached through "properties" alone/,
  ],
  ['number', object({ limit: { type: 'number', 'x-mcp-header': 'Limit' } }), /property "limit".*type "number"/],
  ['on_root', { type: 'object', 'x-mcp-header': 'Root', properties: {} }, /the root schema/],
  [
    'zod_space',
    z.object({ region: z.string().meta({ 'x-mcp-header': 'Bad Name' }) }),
    /property "region".*not an HTTP token/,
  ],
];

const GOOD = tool(
  'good',
  object({
    region: { type: 'string', 'x-mcp-header': 'Region' },
    nested: object({ flag: { type: 'boolean', 'x-mcp-header': 'Flag' } }),
    count: { type: 'integer', 'x-mcp-header': 'Count' },
  }),
);

let server: InMemoryServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('x-mcp-header rules at registration (#24 item 12)', () => {
  it.each(BAD)(
    'refuses "%s" with an InvalidToolError naming the tool, the property and the rule',
    (name, schema, rule) => {
      server = new InMemoryServer();
      const bad = tool(`bad_${name}`, schema);
      let thrown: unknown;
      try {
        server.registerTool(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidToolError);
      expect((thrown as Error).message).toContain(`Tool "bad_${name}" inputSchema`);
      expect((thrown as Error).message).toMatch(rule);
      expect(server.tools.get(`bad_${name}`)).toBeUndefined();
    },
  );

  it.each(['legacy', 'modern'] as const)(
    'only valid tools are served, and the v2 client (%s era) lists every one of them',
    async (era) => {
      server = new InMemoryServer();
      for (const [name, schema] of BAD) {
        try {
          server.registerTool(tool(`bad_${name}`, schema));
        } catch {
          // refused, as the test above checks
        }
      }
      server.registerTool(GOOD);
      await server.start();
      const client = await server.connect(era);
      // The v2 client drops a tool with an invalid annotation on 2026-07-28 (with a console warning):
      // what the server registered and what the client lists must be the same.
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect(listed).toEqual(server.tools.tools().map((t) => t.name));
      expect(listed).toEqual(['good']);
      await client.close();
    },
  );

  it('a per-session tool with an invalid annotation is refused too', async () => {
    server = new InMemoryServer(undefined, {
      sessionTools: () => [tool('session_bad', object({ r: { type: 'string', 'x-mcp-header': 'A B' } }))],
    });
    await server.start();
    await expect(server.connect('legacy')).rejects.toThrow();
  });
});
