import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, type TestClient } from '../support/clients.js';
import type { ContractSession, ContractTarget, ServerControl } from './target.js';

/** After the expected notifications arrived, wait this long to prove no extra one follows. */
const QUIET_MS = 250;
const settle = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

const NOTES_TEMPLATE = 'notes://{folder}/{name}';

async function readText(client: TestClient, uri: string): Promise<string | undefined> {
  return (await client.readResource(uri)).contents[0]?.text;
}

/** The control methods a test needs, or undefined when the target does not offer them (the test is skipped). */
function controls<K extends keyof ServerControl>(control: ServerControl, ...names: K[]) {
  return names.every((name) => typeof control[name] === 'function')
    ? (control as ServerControl & Required<Pick<ServerControl, K>>)
    : undefined;
}

/**
 * The prompts / completions / resources contract, run once per client kind (v1 SDK client,
 * v2 on the 2025 handshake, v2 pinned to 2026-07-28) against a server built from the
 * fixture (`test/fixtures/fixture-prompts.mjs`): prompts `greet`, `country-poem`, `review`,
 * the resource `memo://status` and the template `notes://{folder}/{name}`.
 */
export function runPromptsResourcesSuite(target: ContractTarget): void {
  describe.each(CLIENT_KINDS)(`${target.name} prompts, completions and resources with the %s client`, (kind) => {
    let docs: string;
    const sessions: ContractSession[] = [];

    beforeAll(() => {
      docs = mkdtempSync(path.join(os.tmpdir(), 'contract-prompts-'));
      writeFileSync(path.join(docs, 'readme.md'), '# Readme\n');
    });
    afterAll(() => rmSync(docs, { recursive: true, force: true }));
    afterEach(async () => {
      await Promise.all(sessions.splice(0).map((session) => session.close()));
    });

    const open = async () => {
      const session = await target.open(kind, docs);
      sessions.push(session);
      return session;
    };

    it('lists prompts with their arguments and gets them with arguments', async () => {
      const { client } = await open();
      const prompts = await client.prompts();
      expect(prompts.map((prompt) => prompt.name)).toEqual(['greet', 'country-poem', 'review']);
      expect(prompts[0]).toMatchObject({
        title: 'Greeting',
        description: 'Greets someone.',
        arguments: [
          { name: 'name', description: 'Who to greet', required: true },
          { name: 'style', description: 'formal or casual', required: false },
        ],
      });
      expect(prompts[2]?.arguments).toEqual([
        { name: 'language', description: 'Programming language', required: true },
        { name: 'code', description: 'The code to review', required: true },
      ]);

      const greet = await client.getPrompt('greet', { name: 'Ada', style: 'formal' });
      expect(greet.description).toBe('Greets someone.');
      expect(greet.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Good day, Ada.' } }]);
      const poem = await client.getPrompt('country-poem', { country: 'Ghana' });
      expect(poem.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      const review = await client.getPrompt('review', { language: 'rust', code: 'fn main() {}' });
      expect(review.description).toBe('Review of rust code');
      expect(review.messages[0]?.content.text).toBe('Review this rust:\nfn main() {}');
    });

    it('rejects a missing required argument, a value outside the enum and an unknown prompt with -32602', async () => {
      const { client } = await open();
      await expect(client.getPrompt('greet', {})).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/prompt "greet".*missing required argument "name"/),
      });
      await expect(client.getPrompt('greet', { name: 'Ada', style: 'rude' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/"style" must be one of: formal, casual/),
      });
      await expect(client.getPrompt('review', { language: 'rust' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/prompt "review".*code/),
      });
      await expect(client.getPrompt('nope')).rejects.toMatchObject({ code: -32602, message: /Unknown prompt "nope"/ });
      expect((await client.getPrompt('greet', { name: 'Bo' })).messages[0]?.content.text).toBe('Hi Bo!');
    });

    it('completes prompt arguments (enum, function, zod completable) and template variables', async () => {
      const { client } = await open();
      const greet = { type: 'ref/prompt', name: 'greet' } as const;
      expect(await client.complete(greet, { name: 'style', value: 'F' })).toEqual({
        values: ['formal'],
        total: 1,
        hasMore: false,
      });
      const poem = { type: 'ref/prompt', name: 'country-poem' } as const;
      expect((await client.complete(poem, { name: 'country', value: 'g' })).values).toEqual([
        'Germany',
        'Georgia',
        'Ghana',
      ]);
      const review = { type: 'ref/prompt', name: 'review' } as const;
      expect((await client.complete(review, { name: 'language', value: 'py' })).values).toEqual(['python']);
      expect((await client.complete(greet, { name: 'name', value: 'A' })).values).toEqual([]);

      const notes = { type: 'ref/resource', uri: NOTES_TEMPLATE } as const;
      expect((await client.complete(notes, { name: 'folder', value: 'ar' })).values).toEqual(['archive']);
      const names = await client.complete(notes, { name: 'name', value: '' }, { folder: 'inbox' });
      expect(names.values).toEqual(['todo', 'ideas']);
      await expect(
        client.complete({ type: 'ref/prompt', name: 'nope' }, { name: 'x', value: '' }),
      ).rejects.toMatchObject({ code: -32602 });
    });

    it('lists in-memory resources and template resources after the documents, and reads them', async () => {
      const { client } = await open();
      const uris = (await client.resources()).map((resource) => resource.uri);
      expect(uris[0]).toMatch(/^file:.*readme\.md$/);
      expect(uris.slice(1)).toEqual([
        'memo://status',
        'notes://inbox/todo',
        'notes://inbox/ideas',
        'notes://archive/old',
      ]);
      // The docs folder's own template (file:///<folder>/{+path}) comes first: registered with the folder.
      const templates = await client.resourceTemplates();
      expect(templates).toHaveLength(2);
      expect(templates[0]?.uriTemplate).toMatch(/^file:\/\/.*\/\{\+path\}$/);
      expect(templates[1]).toEqual({ uriTemplate: NOTES_TEMPLATE, name: 'notes', mimeType: 'text/markdown' });
      expect(await readText(client, 'memo://status')).toBe('all systems go');
      const note = await client.readResource('notes://inbox/todo');
      expect(note.contents).toEqual([
        { uri: 'notes://inbox/todo', mimeType: 'text/markdown', text: '# todo\nbuy milk' },
      ]);
      await expect(client.readResource('notes://inbox/missing')).rejects.toThrow(/not found/i);
      expect(await readText(client, uris[0]!)).toBe('# Readme\n');
    });

    it('registering a prompt or a resource after start sends one list_changed of the right kind', async ({ skip }) => {
      const { client, control } = await open();
      const can = controls(control, 'registerPrompt', 'registerResource');
      if (!can) return skip();
      await can.registerPrompt('later');
      await client.promptsChanged.waitFor(1);
      expect((await client.prompts()).map((prompt) => prompt.name)).toContain('later');
      expect((await client.getPrompt('later')).messages[0]?.content.text).toBe('extra prompt later');
      await can.registerResource('memo://later', 'later text');
      await client.resourcesChanged.waitFor(1);
      expect(await readText(client, 'memo://later')).toBe('later text');
      await settle();
      expect([client.promptsChanged.count, client.resourcesChanged.count, client.toolsChanged.count]).toEqual([
        1, 1, 0,
      ]);
    });

    it('a resource update reaches the subscriber for the subscribed URI only, until it unsubscribes', async ({
      skip,
    }) => {
      const { client, control } = await open();
      const can = controls(control, 'sendResourceUpdated', 'updateStatus');
      if (!can) return skip();
      await client.subscribe('memo://status');
      await can.sendResourceUpdated('notes://inbox/todo'); // not subscribed: never delivered
      await can.updateStatus('degraded');
      await client.resourceUpdated.waitFor(1);
      expect(await readText(client, 'memo://status')).toBe('degraded');
      await settle();
      expect(client.updatedUris).toEqual(['memo://status']);

      await client.unsubscribe('memo://status');
      await client.prompts(); // a round trip: the unsubscription is processed before the next update
      await settle();
      await can.updateStatus('recovered');
      await settle();
      expect(client.updatedUris).toEqual(['memo://status']);
    });

    it('two clients: only the one that subscribed is told', async ({ skip }) => {
      const subscriber = await open();
      const bystander = await open();
      const a = controls(subscriber.control, 'updateStatus');
      const b = controls(bystander.control, 'updateStatus');
      if (!a || !b) return skip();
      await subscriber.client.subscribe('memo://status');
      await a.updateStatus('changed');
      if (bystander.control !== subscriber.control) await b.updateStatus('changed');
      await subscriber.client.resourceUpdated.waitFor(1);
      await settle();
      expect(subscriber.client.updatedUris).toEqual(['memo://status']);
      expect(bystander.client.updatedUris).toEqual([]);
    });
  });
}
