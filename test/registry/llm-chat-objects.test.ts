import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidToolError } from '../../src/errors.js';
import { defineTool } from '../../src/registry/tool.js';
import { ToolPackage } from '../../src/registry/tool-package.js';
import { toRegistrable } from '../../src/registry/registrable.js';
import { FilesPackage, PlainPackage, ReadFilesTool, WeatherTool } from '../fixtures/llm-chat-tools.mjs';
import { InMemoryServer } from '../support/in-memory.js';

const texts = (result: { content: unknown }) => (result.content as Array<{ text: string }>).map((c) => c.text);

describe('registerTool with llm-chat objects as they are', () => {
  let server: InMemoryServer;
  afterEach(async () => server?.stop());

  it('lists an llm-chat Tool with its toOpenAI() parameters and maps its result chain', async () => {
    server = new InMemoryServer();
    const weather = new WeatherTool();
    const files = new ReadFilesTool();
    server.registerTool(weather);
    server.registerTool(files);
    const client = await server.connect('modern');
    const listed = (await client.listTools()).tools;
    expect(listed.map((tool) => tool.name)).toEqual(['get_weather', 'read_files']);
    expect(listed[0]!.inputSchema).toEqual(weather.toOpenAI().function.parameters);
    expect(listed[1]!.inputSchema).toEqual(files.toOpenAI().function.parameters);
    expect(listed[0]!.description).toBe('Current weather for a city.');

    const chain = await client.callTool({ name: 'read_files', arguments: { paths: ['a.md', 'b.md', 'c.md'] } });
    expect(texts(chain)).toEqual(['contents of a.md', 'contents of b.md', 'contents of c.md']);
    expect(chain.isError).toBeFalsy();
    const partial = await client.callTool({ name: 'read_files', arguments: { paths: ['a.md', 'missing.md'] } });
    expect(texts(partial)).toEqual(['contents of a.md', 'No such file: missing.md']);
    expect(partial.isError).toBe(true);

    const thrown = await client.callTool({ name: 'get_weather', arguments: { city: 'Atlantis' } });
    expect(thrown.isError).toBe(true);
    expect(texts(thrown).join('\n')).toContain('City not found: Atlantis');
    // The schema is enforced before llm-chat code runs.
    const invalid = await client.callTool({ name: 'get_weather', arguments: { days: 2 } });
    expect(invalid.isError).toBe(true);
    expect(texts(invalid).join('\n')).toMatch(/city/);
  });

  it('names an llm-chat package by its own name property, else by its class (minifiers rename classes)', () => {
    server = new InMemoryServer({ name: 'app', version: '1.0.0' });
    server.registerTool(new FilesPackage());
    expect(new Set(server.getToolStates().map((state) => state.packageName))).toEqual(new Set(['FilesPackage']));
    const other = new InMemoryServer({ name: 'app', version: '1.0.0' });
    other.registerTool(Object.assign(new PlainPackage([new WeatherTool()]), { name: 'weather' }));
    expect(other.getToolStates().map((state) => state.packageName)).toEqual(['weather']);
  });

  it('registers an llm-chat ToolPackage all at once, with its tutorial in the instructions', async () => {
    server = new InMemoryServer({ name: 'app', version: '1.0.0', instructions: 'Server intro.' });
    server.registerTool(new FilesPackage());
    server.registerTool(new PlainPackage([]));
    const client = await server.connect('legacy');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['get_weather', 'read_files']);
    expect(client.getInstructions()).toBe(
      'Server intro.\n\nFiles tutorial: call read_files with every path you need in one call.',
    );
    expect(server.getToolStates().map((state) => state.enabled)).toEqual([true, true]);
  });

  it('disabling one tool of an llm-chat package hides only that tool', async () => {
    server = new InMemoryServer();
    server.registerTool(new FilesPackage());
    const client = await server.connect('legacy');
    server.disableTool('read_files');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['get_weather']);
    server.enableTool('read_files');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['get_weather', 'read_files']);
  });

  it('accepts mixed packages: llm-chat tools inside a toolkit ToolPackage and toolkit tools inside an llm-chat package', async () => {
    server = new InMemoryServer();
    const echo = defineTool<{ text: string }>({
      name: 'echo',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    });
    server.registerTool(new ToolPackage([new WeatherTool(), echo], { instructions: 'Mixed.' }));
    const upper = defineTool<{ text: string }>({
      name: 'upper',
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text.toUpperCase(),
    });
    server.registerTool(new PlainPackage([new ReadFilesTool(), upper as never]));
    const client = await server.connect('legacy');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      'get_weather',
      'echo',
      'read_files',
      'upper',
    ]);
    expect(texts(await client.callTool({ name: 'upper', arguments: { text: 'a' } }))).toEqual(['A']);
    expect(texts(await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } }))).toEqual([
      'Sunny in Oslo',
    ]);
  });

  it('rejects broken objects with a clear error and registers nothing', () => {
    server = new InMemoryServer();
    const noExecute = { name: 'broken', description: 'x', toOpenAI: () => ({ function: { parameters: {} } }) };
    expect(() => server.registerTool(noExecute as never)).toThrow(
      /looks like an llm-chat tool but it has no `execute\(args\)` method/,
    );

    class ThrowingPackage extends PlainPackage {
      override tools(): never {
        throw new Error('disk on fire');
      }
    }
    expect(() => server.registerTool(new ThrowingPackage([]))).toThrow(
      /ThrowingPackage.*tools\(\) threw: disk on fire/,
    );

    // A package whose second member is broken: the first member is not registered either.
    const halfBroken = new PlainPackage([new WeatherTool(), noExecute as never]);
    expect(() => server.registerTool(halfBroken)).toThrow(InvalidToolError);
    expect(() => server.registerTool(halfBroken)).toThrow(/tool #2/);

    for (const junk of [42, null, { name: 'x' }, { run: () => 1 }]) {
      expect(() => server.registerTool(junk as never)).toThrow(/fromLlmChatTool\(\).*defineTool\(\)/);
    }
    expect(server.getToolStates()).toEqual([]);
  });

  it('keeps a clashing llm-chat package all-or-nothing', () => {
    server = new InMemoryServer();
    server.registerTool(new ReadFilesTool());
    expect(() => server.registerTool(new FilesPackage())).toThrow(/read_files/);
    expect(server.getToolStates().map((state) => state.tool.name)).toEqual(['read_files']);
  });

  it('toRegistrable leaves the toolkit’s own tools and packages untouched', () => {
    const echo = defineTool<{ text: string }>({ name: 'echo', execute: () => 'x' });
    const pkg = new ToolPackage([echo]);
    expect(toRegistrable(echo)).toBe(echo);
    expect(toRegistrable(pkg)).toBe(pkg);
  });
});
