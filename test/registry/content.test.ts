import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { audioContent, embeddedResource, imageContent, resourceLink } from '../../src/registry/content.js';
import { PNG, WAV } from '../support/media.js';

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/img.png') return res.end(PNG);
    if (req.url === '/slow') return setTimeout(() => res.end(PNG), 2_000);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('content helpers', () => {
  it('builds image content from bytes, a file and a URL, sniffing the MIME type', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'img-')), 'pixel.png');
    writeFileSync(file, PNG);
    for (const source of [PNG, { path: file }, { url: `${base}/img.png` }]) {
      expect(await imageContent(source)).toEqual({
        type: 'image',
        mimeType: 'image/png',
        data: PNG.toString('base64'),
      });
    }
  });

  it('builds audio content and refuses data of the wrong kind', async () => {
    expect(await audioContent(WAV)).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
    await expect(audioContent(PNG)).rejects.toThrow(/audio type/);
  });

  it('fails clearly on HTTP errors, timeouts and size limits', async () => {
    await expect(imageContent({ url: `${base}/missing` })).rejects.toThrow(/HTTP 404/);
    await expect(imageContent({ url: `${base}/slow` }, { timeoutMs: 100 })).rejects.toThrow(UserError);
    await expect(imageContent(PNG, { maxBytes: 10 })).rejects.toThrow(/over the 10-byte limit/);
  });

  it('builds resource links and embedded resources', () => {
    expect(resourceLink({ uri: 'file:///a.md', name: 'a.md' })).toEqual({
      type: 'resource_link',
      uri: 'file:///a.md',
      name: 'a.md',
    });
    expect(embeddedResource({ uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' })).toEqual({
      type: 'resource',
      resource: { uri: 'file:///a.md', mimeType: 'text/markdown', text: '# A' },
    });
  });
});
