import { mkdtempSync, rmSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, type TestClient } from '../support/clients.js';
import type { ContractSession, ContractTarget } from './target.js';

/** After the expected notifications arrived, wait this long to prove no extra one follows. */
const QUIET_MS = 250;
const settle = () => new Promise((resolve) => setTimeout(resolve, QUIET_MS));

function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

/**
 * The shared contract every server class must pass, run once per client kind: the
 * v1 SDK client (today's typical client), the v2 client on the 2025 handshake, and
 * the v2 client pinned to 2026-07-28.
 */
export function runContractSuite(target: ContractTarget): void {
  describe.each(CLIENT_KINDS)(`${target.name} contract with the %s client`, (kind) => {
    let docs: string;
    let session: ContractSession;
    let client: TestClient;

    beforeAll(() => {
      docs = mkdtempSync(path.join(os.tmpdir(), 'contract-docs-'));
      writeFileSync(path.join(docs, 'notes.md'), '# Notes\nfirst version\n');
      mkdirSync(path.join(docs, 'sub'));
      writeFileSync(path.join(docs, 'sub', 'guide.txt'), 'guide text\n');
    });
    afterAll(() => rmSync(docs, { recursive: true, force: true }));

    const open = async () => {
      session = await target.open(kind, docs);
      client = session.client;
    };
    afterEach(async () => session?.close());

    it('lists tools and resources, calls a tool, reads a resource', async () => {
      await open();
      expect((await client.toolNames()).sort()).toEqual(['add', 'echo', 'fail']);
      expect(text(await client.callTool('echo', { text: 'hi' }))).toBe('hi');
      expect(text(await client.callTool('add', { a: 2, b: 3 }))).toBe('5');
      // The documents (file: URIs); in-memory resources are checked by the prompts/resources suite.
      const resources = (await client.resources()).filter((r) => r.uri.startsWith('file:'));
      expect(resources.map((r) => r.name).sort()).toEqual(['notes.md', 'sub/guide.txt']);
      const notes = resources.find((r) => r.name === 'notes.md')!;
      expect(notes.mimeType).toBe('text/markdown');
      const read = await client.readResource(notes.uri);
      expect(read.contents[0]?.text).toContain('first version');
    });

    it('reads lazily: an edit on disk is seen by the next read', async () => {
      await open();
      const file = path.join(docs, 'sub', 'guide.txt');
      const uri = (await client.resources()).find((r) => r.name === 'sub/guide.txt')!.uri;
      writeFileSync(file, 'edited guide\n');
      expect((await client.readResource(uri)).contents[0]?.text).toBe('edited guide\n');
    });

    it('disable/enable from the server side: one list_changed each, list and call agree', async () => {
      await open();
      await session.control.disable('echo');
      await client.toolsChanged.waitFor(1);
      expect(await client.toolNames()).not.toContain('echo');
      await expect(client.callTool('echo', { text: 'x' })).rejects.toThrow(/disabled/);
      await session.control.enable('echo');
      await client.toolsChanged.waitFor(2);
      expect(await client.toolNames()).toContain('echo');
      expect(text(await client.callTool('echo', { text: 'back' }))).toBe('back');
      await settle();
      expect(client.toolsChanged.count).toBe(2);
    });

    it('setDisabledTools replaces the set with one notification; [] re-enables everything', async () => {
      await open();
      await session.control.setDisabled(['echo', 'add', 'not-registered']);
      await client.toolsChanged.waitFor(1);
      expect(await client.toolNames()).toEqual(['fail']);
      await session.control.setDisabled([]);
      await client.toolsChanged.waitFor(2);
      expect((await client.toolNames()).sort()).toEqual(['add', 'echo', 'fail']);
      await settle();
      expect(client.toolsChanged.count).toBe(2);
    });

    it('unknown names never throw or notify; a disabled name registered later starts disabled', async () => {
      await open();
      await session.control.disable('later');
      await session.control.registerTool('later');
      await session.control.registerTool('live');
      await client.toolsChanged.waitFor(1);
      const names = await client.toolNames();
      expect(names).toContain('live');
      expect(names).not.toContain('later');
      expect(text(await client.callTool('live', { text: 'new' }))).toBe('new');
      await settle();
      expect(client.toolsChanged.count).toBe(1);
    });

    it('removing a tool or a whole package after start: one list_changed each, the tools are gone', async () => {
      await open();
      await session.control.registerTool('temp');
      await client.toolsChanged.waitFor(1);
      expect(await client.toolNames()).toContain('temp');
      await session.control.removeTool('temp');
      await client.toolsChanged.waitFor(2);
      expect(await client.toolNames()).not.toContain('temp');
      await expect(client.callTool('temp', { text: 'x' })).rejects.toThrow(/Unknown tool "temp"/);
      await session.control.removeTool('temp'); // nothing left to remove: no notification
      await session.control.registerAndRemovePackage(['pkg_a', 'pkg_b']); // registered, then removed
      await client.toolsChanged.waitFor(4);
      expect((await client.toolNames()).sort()).toEqual(['add', 'echo', 'fail']);
      await settle();
      expect(client.toolsChanged.count).toBe(4);
    });

    it('a document registered after start is listed and clients are told', async () => {
      await open();
      const extra = path.join(docs, `extra-${kind}.txt`);
      writeFileSync(extra, 'extra');
      await session.control.registerDocument(extra);
      await client.resourcesChanged.waitFor(1);
      expect((await client.resources()).map((r) => r.name)).toContain(`extra-${kind}.txt`);
    });

    it('bad input gets a clear error and the server keeps serving', async () => {
      await open();
      await expect(client.callTool('no_such_tool', {})).rejects.toThrow(/Unknown tool "no_such_tool"/);
      const wrongType = await client.callTool('add', { a: 'two', b: 3 });
      expect(wrongType.isError).toBe(true);
      expect(text(wrongType)).toMatch(/Invalid arguments for tool "add".*a/);
      const missing = await client.callTool('echo', {});
      expect(missing.isError).toBe(true);
      expect(text(missing)).toMatch(/text/);
      const failed = await client.callTool('fail', {});
      expect(failed.isError).toBe(true);
      expect(text(failed)).toContain('This tool always fails');
      await expect(client.readResource('file:///definitely/not/registered.md')).rejects.toThrow(/not found/i);
      const doomed = path.join(docs, `doomed-${kind}.txt`);
      writeFileSync(doomed, 'soon gone');
      await session.control.registerDocument(doomed);
      const uri = (await client.resources()).find((r) => r.name === `doomed-${kind}.txt`)!.uri;
      unlinkSync(doomed);
      await expect(client.readResource(uri)).rejects.toThrow(/not found|no longer/i);
      expect(text(await client.callTool('echo', { text: 'still here' }))).toBe('still here');
    });
  });
}
