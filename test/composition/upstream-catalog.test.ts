// Upstream prompts, resources and resource templates: a gateway (HttpMcpServer) in front of the real
// @modelcontextprotocol/server-everything (stdio, legacy era) and one of our own servers (HTTP,
// 2026-07-28 era). Clients of each era (v1 SDK, v2 legacy, v2 2026-07-28) talk to it over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HttpMcpServer, definePrompt } from '../../dist/index.js';
import type { UpstreamHandle } from '../../dist/public/composition.js';
import { CLIENT_KINDS, connectClient, type TestClient } from '../support/clients.js';
import { EVERYTHING, quiet, recordingLogger, until } from './gateway-clients.js';

const TEXT_TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';

describe('gateway: upstream prompts, resources and resource templates', () => {
  let own: HttpMcpServer;
  let gateway: HttpMcpServer;
  let everything: UpstreamHandle;
  let ownUpstream: UpstreamHandle;
  let clients: TestClient[] = [];

  beforeAll(async () => {
    own = new HttpMcpServer({ name: 'own', version: '1.0.0' }, { port: 0, logger: recordingLogger([]) });
    own.registerPrompt(
      definePrompt({
        name: 'review',
        description: 'Review code',
        arguments: [{ name: 'language', required: true, enum: ['ts', 'py'] }],
        load: ({ language }) => `Review this ${language} code.`,
      }),
    );
    own.registerResource({
      uri: 'config://own/app',
      name: 'app config',
      mimeType: 'application/json',
      read: () => '{"a":1}',
    });
    await own.start();
    gateway = new HttpMcpServer({ name: 'gateway', version: '1.0.0' }, { port: 0, logger: recordingLogger([]) });
    gateway.registerResource({ uri: 'config://own/app', name: 'local config', read: () => 'local wins' });
    everything = gateway.addUpstream({ name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'] });
    ownUpstream = gateway.addUpstream({ name: 'own', url: own.address.url });
    await gateway.start();
    await Promise.all([everything.whenConnected(), ownUpstream.whenConnected()]);
    await quiet(500); // server-everything registers some of its parts after initialize
    const url = new URL(gateway.address.url);
    clients = await Promise.all(
      CLIENT_KINDS.map((kind) => connectClient(kind, kind === 'v1' ? new HttpV1(url) : new HttpV2(url))),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await gateway?.stop();
    await own?.stop();
  }, 30_000);

  it('lists upstream prompts under the namespace, and resources and templates under their own URIs', async () => {
    for (const client of clients) {
      const prompts = (await client.prompts()).map((prompt) => prompt.name);
      expect(prompts, client.kind).toEqual(
        expect.arrayContaining([
          'everything_simple-prompt',
          'everything_args-prompt',
          'everything_completable-prompt',
          'own_review',
        ]),
      );
      const args = (await client.prompts()).find((prompt) => prompt.name === 'everything_args-prompt')?.arguments;
      expect(args).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'city', required: true })]));
      const uris = (await client.resources()).map((resource) => resource.uri);
      expect(
        uris.some((uri) => uri.startsWith('demo://resource/static/document/')),
        client.kind,
      ).toBe(true);
      // The local resource keeps its URI; the upstream's resource with the same URI is left out.
      expect(uris.filter((uri) => uri === 'config://own/app')).toHaveLength(1);
      const templates = (await client.resourceTemplates()).map((template) => template.uriTemplate);
      expect(templates, client.kind).toEqual(expect.arrayContaining([TEXT_TEMPLATE]));
    }
    expect(everything.status).toMatchObject({ state: 'connected' });
    expect(everything.status.prompts).toBeGreaterThanOrEqual(4);
    expect(everything.status.resourceTemplates).toBeGreaterThanOrEqual(2);
  });

  it('forwards prompts/get with the arguments, and the upstream refusal with its code', async () => {
    for (const client of clients) {
      const simple = await client.getPrompt('everything_simple-prompt');
      expect(simple.messages[0]?.content.text, client.kind).toMatch(/simple prompt/i);
      const args = await client.getPrompt('everything_args-prompt', { city: 'Lyon', state: 'Rhone' });
      expect(JSON.stringify(args.messages), client.kind).toContain('Lyon');
      const review = await client.getPrompt('own_review', { language: 'py' });
      expect(review.messages[0]?.content.text).toBe('Review this py code.');
      await expect(client.getPrompt('everything_args-prompt', {}), client.kind).rejects.toMatchObject({ code: -32602 });
    }
  });

  it('forwards resources/read of fixed resources and of template URIs', async () => {
    for (const client of clients) {
      const fixed = (await client.resources()).find((resource) => resource.uri.startsWith('demo://resource/static/'))!;
      const read = await client.readResource(fixed.uri);
      expect(read.contents[0]?.uri, client.kind).toBe(fixed.uri);
      expect(read.contents[0]?.text?.length, client.kind).toBeGreaterThan(0);
      const dynamic = await client.readResource('demo://resource/dynamic/text/7');
      expect(dynamic.contents[0]?.text, client.kind).toMatch(/7/);
      expect((await client.readResource('config://own/app')).contents[0]?.text).toBe('local wins');
    }
  });

  it('forwards completion of prompt arguments (with context) and template variables', async () => {
    for (const client of clients) {
      const ref = { type: 'ref/prompt' as const, name: 'everything_completable-prompt' };
      expect((await client.complete(ref, { name: 'department', value: 'S' })).values, client.kind).toEqual([
        'Sales',
        'Support',
      ]);
      const names = await client.complete(ref, { name: 'name', value: '' }, { department: 'Engineering' });
      expect(names.values, client.kind).toEqual(['Alice', 'Bob', 'Charlie']);
      const template = { type: 'ref/resource' as const, uri: TEXT_TEMPLATE };
      expect((await client.complete(template, { name: 'resourceId', value: '12' })).values).toEqual(['12']);
    }
  });

  it("an upstream's prompt list change tells each client once; its resource list change too", async () => {
    await quiet(300);
    const prompts = clients.map((client) => client.promptsChanged.count);
    own.registerPrompt(definePrompt({ name: 'later', load: () => 'later' }));
    await Promise.all(clients.map((client, i) => client.promptsChanged.waitFor(prompts[i]! + 1)));
    await quiet();
    expect(clients.map((client) => client.promptsChanged.count)).toEqual(prompts.map((count) => count + 1));
    for (const client of clients) expect((await client.getPrompt('own_later')).messages[0]?.content.text).toBe('later');

    const resources = clients.map((client) => client.resourcesChanged.count);
    // server-everything registers a session resource and sends resources/list_changed.
    const data = `data:text/plain;base64,${Buffer.from('zip me').toString('base64')}`;
    const result = await clients[1]!.callTool('everything_gzip-file-as-resource', { name: 'note.gz', data });
    expect(result.isError ?? false).toBe(false);
    await Promise.all(clients.map((client, i) => client.resourcesChanged.waitFor(resources[i]! + 1)));
    await quiet();
    expect(clients.map((client) => client.resourcesChanged.count)).toEqual(resources.map((count) => count + 1));
    for (const client of clients) {
      expect((await client.resources()).map((resource) => resource.uri)).toContain('demo://resource/session/note.gz');
    }
  });

  it('an upstream that goes away takes its prompts, resources and templates with it (one change each), and they return', async () => {
    await quiet(300);
    const prompts = clients.map((client) => client.promptsChanged.count);
    const resources = clients.map((client) => client.resourcesChanged.count);
    const pid = everything.status.pid!;
    process.kill(pid, 'SIGKILL');
    await Promise.all(clients.map((client, i) => client.promptsChanged.waitFor(prompts[i]! + 1)));
    await Promise.all(clients.map((client, i) => client.resourcesChanged.waitFor(resources[i]! + 1)));
    await until(() => everything.status.state !== 'connected', 'the upstream to be seen as lost');
    for (const client of clients) {
      expect((await client.prompts()).some((prompt) => prompt.name.startsWith('everything_'))).toBe(false);
      expect((await client.resourceTemplates()).map((template) => template.uriTemplate)).not.toContain(TEXT_TEMPLATE);
      expect((await client.resources()).some((resource) => resource.uri.startsWith('demo://'))).toBe(false);
      expect((await client.prompts()).map((prompt) => prompt.name)).toContain('own_review');
    }
    if (everything.status.state === 'retrying') {
      // still down: nothing more was sent
      expect(clients.map((client) => client.promptsChanged.count)).toEqual(prompts.map((count) => count + 1));
    }
    await everything.whenConnected();
    await Promise.all(clients.map((client, i) => client.promptsChanged.waitFor(prompts[i]! + 2)));
    for (const client of clients) {
      await until(
        async () => (await client.prompts()).some((prompt) => prompt.name === 'everything_simple-prompt'),
        `${client.kind} to see the prompts again`,
      );
      expect((await client.resourceTemplates()).map((template) => template.uriTemplate)).toContain(TEXT_TEMPLATE);
      expect((await client.readResource('demo://resource/dynamic/text/3')).contents[0]?.text).toMatch(/3/);
    }
  }, 30_000);
});
