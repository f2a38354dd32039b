import { afterEach, describe, expect, it } from 'vitest';
import { defineTool } from '../../src/registry/tool.js';
import { ToolPackage } from '../../src/registry/tool-package.js';
import { InMemoryServer } from '../support/in-memory.js';

let server: InMemoryServer;
afterEach(() => server?.stop());

describe.each(['legacy', 'modern'] as const)('server metadata on the %s era', (era) => {
  it('sends title, description, websiteUrl, icons and instructions (with tool package instructions)', async () => {
    server = new InMemoryServer({
      name: 'meta',
      version: '2.1.0',
      title: 'Meta Server',
      description: 'Shows its metadata',
      websiteUrl: 'https://example.com/meta',
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
      instructions: 'Use the tools wisely.',
    });
    server.registerTool(
      new ToolPackage([defineTool({ name: 'x', execute: () => 'x' })], { instructions: 'x does nothing.' }),
    );
    const client = await server.connect(era);
    expect(client.getServerVersion()).toMatchObject({
      name: 'meta',
      version: '2.1.0',
      title: 'Meta Server',
      description: 'Shows its metadata',
      websiteUrl: 'https://example.com/meta',
      icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
    });
    expect(client.getInstructions()).toBe('Use the tools wisely.\n\nx does nothing.');
    expect(client.getServerCapabilities()).toMatchObject({
      tools: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
  });
});
