import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { definePrompt, type PromptContext } from '../../src/prompts/prompt.js';
import { InMemoryServer } from '../support/in-memory.js';

const ERAS = ['legacy', 'modern'] as const;

describe.each(ERAS)('prompts and completions over the %s era', (era) => {
  let server: InMemoryServer;
  afterEach(async () => server?.stop());

  async function setUp(): Promise<Client> {
    server = new InMemoryServer();
    server.registerPrompt({
      name: 'greet',
      description: 'Greets someone.',
      arguments: [
        { name: 'name', required: true },
        { name: 'style', enum: ['formal', 'casual'] },
      ],
      load: ({ name, style }) => (style === 'formal' ? `Good day, ${name}.` : `Hi ${name}!`),
    });
    server.registerPrompt({
      name: 'many',
      arguments: [
        { name: 'n', complete: (value) => Array.from({ length: 150 }, (_, i) => `${value}${i}`) },
        { name: 'shaped', complete: () => ({ values: ['a', 'b'], total: 10, hasMore: true }) },
        { name: 'city', complete: (value, ctx) => [`${ctx.arguments.country ?? '?'}:${value}:${ctx.era}`] },
        { name: 'broken', complete: () => Promise.reject(new Error('index offline')) },
      ],
      load: () => 'many',
    });
    await server.start();
    return server.connect(era);
  }

  it('declares the prompts, completions and resource-subscription capabilities', async () => {
    const client = await setUp();
    expect(client.getServerCapabilities()).toMatchObject({
      prompts: { listChanged: true },
      completions: {},
      resources: { listChanged: true, subscribe: true },
    });
  });

  it('lists and gets prompts; load receives the request context', async () => {
    const client = await setUp();
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['greet', 'many']);
    const result = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada', style: 'formal' } });
    expect(result.description).toBe('Greets someone.');
    expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Good day, Ada.' } }]);

    let seen: PromptContext | undefined;
    server.registerPrompt({ name: 'ctx', load: (_args, context) => ((seen = context), 'ok') });
    await client.getPrompt({ name: 'ctx' });
    expect(seen).toMatchObject({ era, clientInfo: { name: 'unit' } });
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    expect(seen?.requestId).toBeDefined();
  });

  it('answers bad requests with -32602 naming the prompt and the argument', async () => {
    const client = await setUp();
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Invalid arguments for prompt "greet": missing required argument "name"'),
    });
    await expect(client.getPrompt({ name: 'greet', arguments: { name: 'A', style: 'x' } })).rejects.toMatchObject({
      code: -32602,
    });
    await expect(client.getPrompt({ name: 'missing' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown prompt "missing"'),
    });
  });

  it('maps errors thrown by load(): UserError -> -32602 verbatim, others -> -32603 naming the prompt', async () => {
    const client = await setUp();
    server.registerPrompt({
      name: 'user-error',
      load: () => {
        throw new UserError('Pick a repository first.');
      },
    });
    server.registerPrompt({ name: 'crash', load: async () => Promise.reject(new Error('disk on fire')) });
    server.registerPrompt(definePrompt({ name: 'bad-shape', load: () => 42 as never }));
    await expect(client.getPrompt({ name: 'user-error' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Pick a repository first.'),
    });
    await expect(client.getPrompt({ name: 'crash' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('Prompt "crash" failed: disk on fire'),
    });
    await expect(client.getPrompt({ name: 'bad-shape' })).rejects.toMatchObject({ code: -32603 });
    expect((await client.getPrompt({ name: 'greet', arguments: { name: 'B' } })).messages).toHaveLength(1);
  });

  it('completes arguments: at most 100 values with total and hasMore, context arguments, errors', async () => {
    const client = await setUp();
    const ref = { type: 'ref/prompt' as const, name: 'many' };
    const many = await client.complete({ ref, argument: { name: 'n', value: 'x' } });
    expect(many.completion.values).toHaveLength(100);
    expect(many.completion).toMatchObject({ total: 150, hasMore: true });
    expect(many.completion.values[0]).toBe('x0');
    const shaped = await client.complete({ ref, argument: { name: 'shaped', value: '' } });
    expect(shaped.completion).toEqual({ values: ['a', 'b'], total: 10, hasMore: true });
    const city = await client.complete({
      ref,
      argument: { name: 'city', value: 'Ber' },
      context: { arguments: { country: 'DE' } },
    });
    expect(city.completion.values).toEqual([`DE:Ber:${era}`]);
    const style = await client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'style', value: 'CA' },
    });
    expect(style.completion).toEqual({ values: ['casual'], total: 1, hasMore: false });
    const none = await client.complete({ ref, argument: { name: 'nope', value: '' } });
    expect(none.completion).toEqual({ values: [], total: 0, hasMore: false });
    await expect(client.complete({ ref, argument: { name: 'broken', value: '' } })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('Completion of "broken" failed: index offline'),
    });
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'ghost' }, argument: { name: 'a', value: '' } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('registering or removing a prompt after start sends exactly one prompts list_changed', async () => {
    const client = await setUp();
    let changes = 0;
    client.setNotificationHandler('notifications/prompts/list_changed', () => void (changes += 1));
    if (era === 'modern') await client.listen({ promptsListChanged: true });
    server.registerPrompt({ name: 'late', load: () => 'late' });
    await expect.poll(() => changes, { timeout: 5_000 }).toBe(1);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toContain('late');
    expect(server.removePrompt('late')).toBe(true);
    expect(server.removePrompt('late')).toBe(false);
    await expect.poll(() => changes, { timeout: 5_000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changes).toBe(2);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain('late');
  });
});
