import { Client } from '@modelcontextprotocol/client';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidToolError } from '../../src/errors.js';
import { definePrompt } from '../../src/prompts/prompt.js';
import { audioContent, imageContent, resourceLink } from '../../src/registry/content.js';
import { defineTool } from '../../src/registry/tool.js';
import type { ElicitOptions } from '../../src/registry/tool-context.js';
import { clientOptions, InMemoryServer } from '../support/in-memory.js';
import { PNG, WAV } from '../support/media.js';

let server: InMemoryServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function serve(...tools: Parameters<InMemoryServer['registerTool']>[0][]): Promise<InMemoryServer> {
  server = new InMemoryServer();
  for (const tool of tools) server.registerTool(tool);
  await server.start();
  return server;
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('');
}

const arkStats = () =>
  defineTool({
    name: 'ark_stats',
    inputSchema: type({ values: 'number[]', 'label?': 'string' }),
    outputSchema: type({ count: 'number', label: 'string' }),
    execute: ({ values, label }) => ({ count: values.length, label: label ?? 'none' }),
  });

const valibotStats = () =>
  defineTool({
    name: 'valibot_stats',
    inputSchema: v.object({ values: v.array(v.number()), label: v.optional(v.string()) }),
    outputSchema: v.object({ count: v.number(), label: v.string() }),
    execute: ({ values, label }) => ({ count: values.length, label: label ?? 'none' }),
  });

describe.each(['legacy', 'modern'] as const)('Standard Schemas without wrappers (%s era)', (era) => {
  it.each([
    ['ark_stats', arkStats],
    ['valibot_stats', valibotStats],
  ])('%s: lists JSON Schema, validates input and output', async (name, make) => {
    const client = await (await serve(make())).connect(era);
    const { tools } = await client.listTools();
    const listed = tools.find((tool) => tool.name === name);
    expect(listed?.inputSchema).toMatchObject({
      type: 'object',
      properties: { values: { type: 'array', items: { type: 'number' } }, label: { type: 'string' } },
      required: ['values'],
    });
    expect(listed?.inputSchema).not.toHaveProperty('$schema');
    expect(listed?.outputSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['count']) });

    const ok = await client.callTool({ name, arguments: { values: [1, 2, 3] } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent).toEqual({ count: 3, label: 'none' });

    const bad = await client.callTool({ name, arguments: { values: ['x'] } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(new RegExp(`^Invalid arguments for tool "${name}": values\\.0: `));
  });

  it('reports a structured result that breaks an ArkType or Valibot outputSchema', async () => {
    const arkWrong = defineTool({
      name: 'ark_wrong',
      outputSchema: type({ count: 'number' }),
      execute: () => ({ count: 'three' }) as never,
    });
    const valibotWrong = defineTool({
      name: 'valibot_wrong',
      outputSchema: v.object({ count: v.number() }),
      execute: () => ({ count: 'three' }) as never,
    });
    const client = await (await serve(arkWrong, valibotWrong)).connect(era);
    for (const name of ['ark_wrong', 'valibot_wrong']) {
      const result = await client.callTool({ name, arguments: {} });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/outputSchema/);
      expect(text(result)).toMatch(/count/);
    }
  });

  it('sends a bare imageContent / audioContent / resourceLink as that block, not as JSON text', async () => {
    const image = defineTool({ name: 'image', execute: () => imageContent(PNG) });
    const audio = defineTool({ name: 'audio', execute: () => audioContent(WAV) });
    const link = defineTool({ name: 'link', execute: () => resourceLink({ uri: 'file:///a.md', name: 'a' }) });
    // An object that merely has `type` and `text` among other fields is a structured value.
    const record = defineTool({ name: 'record', execute: () => ({ type: 'text', text: 'hi', lang: 'en' }) });
    const client = await (await serve(image, audio, link, record)).connect(era);

    const img = await client.callTool({ name: 'image', arguments: {} });
    expect(img.content).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') }]);
    expect(img.structuredContent).toBeUndefined();
    const wav = await client.callTool({ name: 'audio', arguments: {} });
    expect(wav.content).toEqual([{ type: 'audio', mimeType: 'audio/wav', data: WAV.toString('base64') }]);
    const res = await client.callTool({ name: 'link', arguments: {} });
    expect(res.content).toEqual([{ type: 'resource_link', uri: 'file:///a.md', name: 'a' }]);
    const rec = await client.callTool({ name: 'record', arguments: {} });
    expect(rec.structuredContent).toEqual({ type: 'text', text: 'hi', lang: 'en' });
  });

  it('elicits with ArkType and Valibot requestedSchemas', async () => {
    server = new InMemoryServer();
    const asking = (name: string, requestedSchema: ElicitOptions['requestedSchema']) =>
      defineTool({
        name,
        execute: async (_args, context) => {
          const reply = await context.elicit({ message: 'Your name?', requestedSchema });
          return reply.action === 'accept' ? `Hello ${String(reply.content?.name)}` : reply.action;
        },
      });
    server.registerTool(asking('ark_ask', type({ name: 'string' })));
    server.registerTool(asking('valibot_ask', v.object({ name: v.string() })));
    await server.start();
    const client = new Client(
      { name: 'unit', version: '1' },
      clientOptions(era, { capabilities: { elicitation: {} } }),
    );
    const schemas: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      schemas.push((request.params as { requestedSchema?: unknown }).requestedSchema);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    await server.connect(era, client);
    for (const name of ['ark_ask', 'valibot_ask']) {
      expect(text(await client.callTool({ name, arguments: {} }))).toBe('Hello Ada');
    }
    for (const schema of schemas) {
      expect(schema).toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    }
    expect(schemas).toHaveLength(2);
  });

  it('takes ArkType and Valibot prompt arguments', async () => {
    server = new InMemoryServer();
    server.registerPrompt(
      definePrompt({
        name: 'ark_review',
        arguments: type({ language: 'string' }),
        load: ({ language }) => `Review this ${language} code.`,
      }),
    );
    server.registerPrompt(
      definePrompt({
        name: 'valibot_review',
        arguments: v.object({ language: v.string() }),
        load: ({ language }) => `Review this ${language} code.`,
      }),
    );
    await server.start();
    const client = await server.connect(era);
    const { prompts } = await client.listPrompts();
    for (const name of ['ark_review', 'valibot_review']) {
      expect(prompts.find((prompt) => prompt.name === name)?.arguments).toEqual([{ name: 'language', required: true }]);
      const got = await client.getPrompt({ name, arguments: { language: 'Go' } });
      expect(got.messages[0]?.content).toMatchObject({ type: 'text', text: 'Review this Go code.' });
    }
  });
});

describe('Standard Schemas that cannot be listed', () => {
  it('refuses a Standard Schema without a JSON Schema form, naming its vendor', () => {
    const opaque = {
      '~standard': { version: 1 as const, vendor: 'homegrown', validate: (value: unknown) => ({ value }) },
    };
    const tool = defineTool({ name: 'opaque', inputSchema: opaque, execute: () => 'x' });
    expect(() => tool.compiled()).toThrow(InvalidToolError);
    expect(() => tool.compiled()).toThrow(/"homegrown" without a JSON Schema form/);
  });

  it('refuses a Valibot schema JSON Schema cannot express, saying why', () => {
    const tool = defineTool({
      name: 'dated',
      inputSchema: v.object({ when: v.date() }),
      execute: () => 'x',
    });
    expect(() => tool.compiled()).toThrow(/Tool "dated" inputSchema cannot be converted to JSON Schema: .*date/);
  });

  it('refuses an ArkType schema that is not an object schema', () => {
    const tool = defineTool({ name: 'scalar', inputSchema: type('string'), execute: () => 'x' });
    expect(() => tool.compiled()).toThrow(/must describe an object/);
  });
});
