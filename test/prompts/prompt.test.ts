import { completable } from '@modelcontextprotocol/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { DuplicatePromptError, InvalidPromptError } from '../../src/errors.js';
import { definePrompt, type Prompt, type PromptContext } from '../../src/prompts/prompt.js';
import { PromptRegistry } from '../../src/prompts/prompt-registry.js';
import { toGetPromptResult } from '../../src/prompts/prompt-result.js';
import { InMemoryServer } from '../support/in-memory.js';

const context = {} as PromptContext & { arguments: Record<string, string> };
const text = (value: string) => definePrompt({ name: value, load: () => value });

describe('Prompt definitions', () => {
  it('lists name, title, description, icons and arguments (required defaults to false)', () => {
    const listing = {
      name: 'greet',
      title: 'Greeting',
      description: 'Greets someone.',
      icons: [{ src: 'https://example.com/i.png' }],
    };
    const prompt = definePrompt({
      ...listing,
      arguments: [
        { name: 'name', description: 'Who', required: true },
        { name: 'style', title: 'Style', enum: ['formal', 'casual'] },
      ],
      load: ({ name }) => `Hi ${name}`,
    });
    expect(prompt.compiled().listed).toEqual({
      ...listing,
      arguments: [
        { name: 'name', description: 'Who', required: true },
        { name: 'style', title: 'Style', required: false },
      ],
    });
    expect(Object.isFrozen(prompt.compiled().listed)).toBe(true);
    expect(text('bare').compiled().listed).toEqual({ name: 'bare' });
  });

  it('rejects unusable definitions with InvalidPromptError (code INVALID_PROMPT)', () => {
    const load = () => '';
    expect(() => definePrompt({ name: ' ', load })).toThrow(InvalidPromptError);
    expect(() => definePrompt({ name: 'x', load, arguments: [{ name: 'a' }, { name: 'a' }] })).toThrow(
      /declares argument "a" twice/,
    );
    expect(() => definePrompt({ name: 'x', load, arguments: [{ name: '' }] })).toThrow(/argument without a name/);
    expect(() => definePrompt({ name: 'x', load, arguments: [{ name: 'a', enum: [] }] })).toThrow(/empty enum/);
    expect(() => definePrompt({ name: 'x', load, arguments: z.string() as never })).toThrow(/must describe an object/);
    expect(() => definePrompt({ name: 'x' } as never)).toThrow(/needs a load\(\) function/);
    try {
      definePrompt({ name: '', load });
    } catch (error) {
      expect((error as InvalidPromptError).code).toBe('INVALID_PROMPT');
    }
  });

  it('validates argument lists: required, enum; extra arguments pass through', async () => {
    const { arguments: args } = definePrompt({
      name: 'p',
      arguments: [
        { name: 'name', required: true },
        { name: 'style', enum: ['formal', 'casual'] },
      ],
      load: () => '',
    }).compiled();
    expect(await args.validate(undefined)).toEqual({ ok: false, message: 'missing required argument "name"' });
    expect(await args.validate({ name: 'A', style: 'rude' })).toEqual({
      ok: false,
      message: 'argument "style" must be one of: formal, casual',
    });
    expect(await args.validate({ name: '', extra: 'x' })).toEqual({ ok: true, value: { name: '', extra: 'x' } });
  });

  it('takes a zod object schema: listing from its JSON Schema, validation naming the field', async () => {
    const prompt = definePrompt({
      name: 'review',
      arguments: z.object({
        language: z.enum(['typescript', 'python']).describe('Language'),
        code: z.string().describe('Code'),
        note: z.string().optional(),
      }),
      load: ({ language, code }) => `${language}: ${code}`,
    });
    expect(prompt.compiled().listed.arguments).toEqual([
      { name: 'language', description: 'Language', required: true },
      { name: 'code', description: 'Code', required: true },
      { name: 'note', required: false },
    ]);
    const bad = await prompt.compiled().arguments.validate({ language: 'typescript' });
    expect(bad).toMatchObject({ ok: false, message: expect.stringMatching(/^code: /) });
    const good = await prompt.compiled().arguments.validate({ language: 'python', code: 'x' });
    expect(good).toEqual({ ok: true, value: { language: 'python', code: 'x' } });
  });

  it('completes from complete(), enum (case-insensitive prefix), z.enum and completable()', async () => {
    const list = definePrompt({
      name: 'p',
      arguments: [
        { name: 'style', enum: ['Formal', 'casual', 'fun'] },
        { name: 'city', enum: ['ignored'], complete: (value) => [`${value}ville`] },
        { name: 'free' },
      ],
      load: () => '',
    }).compiled().arguments;
    expect(await list.completer('style')?.('f', context)).toEqual(['Formal', 'fun']);
    expect(await list.completer('city')?.('Spring', context)).toEqual(['Springville']);
    expect(list.completer('free')).toBeUndefined();
    expect(list.completer('unknown')).toBeUndefined();

    const schema = definePrompt({
      name: 's',
      arguments: z.object({
        kind: z.enum(['bug', 'feature']),
        language: completable(z.string(), (value) => ['rust', 'ruby'].filter((l) => l.startsWith(value))).optional(),
        plain: z.string(),
      }),
      load: () => '',
    }).compiled().arguments;
    expect(await schema.completer('kind')?.('F', context)).toEqual(['feature']);
    expect(await schema.completer('language')?.('ru', context)).toEqual(['rust', 'ruby']);
    expect(schema.completer('plain')).toBeUndefined();
    expect(schema.completer('toString')).toBeUndefined();
  });
});

describe('Prompt argument types', () => {
  it('types load() arguments from a zod schema, and as strings for an argument list', async () => {
    const schema = z.object({ n: z.string(), k: z.enum(['a', 'b']).optional() });
    const typed = definePrompt({
      name: 'typed',
      arguments: schema,
      load: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ n: string; k?: 'a' | 'b' | undefined }>();
        return args.n;
      },
    });
    expectTypeOf(typed.load).parameter(0).toEqualTypeOf<{ n: string; k?: 'a' | 'b' | undefined }>();
    const server = new InMemoryServer();
    const listed = server.registerPrompt({
      name: 'listed',
      arguments: [{ name: 'who' }],
      load: (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, string>>();
        return `hi ${args.who}`;
      },
    });
    expectTypeOf(listed).toEqualTypeOf<Prompt<Record<string, string>>>();
    const fromSchema = server.registerPrompt({ name: 'schema', arguments: schema, load: ({ n }) => n });
    expectTypeOf(fromSchema).toEqualTypeOf<Prompt<{ n: string; k?: 'a' | 'b' | undefined }>>();
    expect(server.prompts.list().map((prompt) => prompt.name)).toEqual(['listed', 'schema']);
    await server.stop();
  });
});

describe('toGetPromptResult', () => {
  it('turns a string, messages or a full result into a GetPromptResult', () => {
    expect(toGetPromptResult('hi', 'desc')).toEqual({
      description: 'desc',
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
    });
    const messages = [{ role: 'assistant' as const, content: { type: 'text' as const, text: 'ok' } }];
    expect(toGetPromptResult(messages, undefined)).toEqual({ messages });
    expect(toGetPromptResult({ description: 'own', messages }, 'desc')).toEqual({ description: 'own', messages });
    expect(() => toGetPromptResult(42 as never, undefined)).toThrow(TypeError);
  });
});

describe('PromptRegistry', () => {
  it('keeps registration order, caches the list and notifies once per change', () => {
    const registry = new PromptRegistry();
    const changes: unknown[] = [];
    registry.onChange((change) => changes.push(change));
    registry.register(text('b'), text('a'));
    registry.register(text('c'));
    const list = registry.list();
    expect(list.map((prompt) => prompt.name)).toEqual(['b', 'a', 'c']);
    expect(registry.list()).toBe(list);
    expect(changes).toHaveLength(2);
    expect(registry.remove('a')).toBe(true);
    expect(registry.remove('a')).toBe(false);
    expect(registry.list().map((prompt) => prompt.name)).toEqual(['b', 'c']);
    expect(changes).toEqual([expect.anything(), expect.anything(), { added: [], removed: ['a'] }]);
    expect(registry.size).toBe(2);
  });

  it('rejects duplicates all-or-nothing with DuplicatePromptError (code DUPLICATE_PROMPT) naming the prompt', () => {
    const registry = new PromptRegistry();
    registry.register(text('a'));
    expect(() => registry.register(text('new'), text('a'))).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_PROMPT', promptName: 'a', message: expect.stringContaining('"a"') }),
    );
    expect(() => registry.register(text('x'), text('x'))).toThrow(DuplicatePromptError);
    expect(registry.get('new')).toBeUndefined();
    expect(() => registry.register({ name: 'plain' } as never)).toThrow(InvalidPromptError);
  });
});
