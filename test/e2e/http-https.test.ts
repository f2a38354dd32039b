// HttpMcpServer over HTTPS with a certificate the test generates: the v2 (2026-07-28) and v1
// clients trust its CA and call tools; a client that does not trust it is refused by TLS; the
// CLI's --https-cert/--https-key flags serve the same and its banner shows the https:// URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { generate } from 'selfsigned';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { connectClient, type ClientKind } from '../support/clients.js';
import { exitWithin, startServer } from './http-helpers.js';

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
let pems: { cert: string; private: string };
let dir: string;
let server: HttpMcpServer;

/** A fetch that trusts only the test's self-signed certificate. */
function trustingFetch(): typeof fetch {
  const dispatcher = new Agent({ connect: { ca: pems.cert } });
  return ((url: string | URL, init?: RequestInit) =>
    undiciFetch(url, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch;
}

beforeAll(async () => {
  pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as never);
  dir = mkdtempSync(path.join(os.tmpdir(), 'https-'));
  writeFileSync(path.join(dir, 'cert.pem'), pems.cert);
  writeFileSync(path.join(dir, 'key.pem'), pems.private);
  writeFileSync(path.join(dir, 'note.md'), '# TLS\n');
  server = await startServer({ https: { key: pems.private, cert: pems.cert } });
});

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('HttpMcpServer with the https option', () => {
  it('reports an https:// URL', () => {
    expect(server.address.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it.each<ClientKind>(['v2-modern', 'v2-legacy', 'v1'])('serves the %s client over TLS', async (kind) => {
    const url = new URL(server.address.url);
    const transport =
      kind === 'v1' ? new HttpV1(url, { fetch: trustingFetch() }) : new HttpV2(url, { fetch: trustingFetch() });
    const client = await connectClient(kind, transport);
    try {
      expect((await client.toolNames()).sort()).toEqual(['echo', 'whoami']);
      expect((await client.callTool('echo', { text: 'over tls' })).content[0]?.text).toBe('over tls');
    } finally {
      await client.close();
    }
  });

  it('is refused by a client that does not trust the certificate', async () => {
    await expect(fetch(server.address.url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('does not answer plain HTTP on the same port', async () => {
    const plain = server.address.url.replace('https://', 'http://');
    const outcome = await fetch(plain, { method: 'POST', body: '{}' }).then(
      (response) => response.status,
      () => 'refused',
    );
    expect(outcome === 'refused' || outcome === 400).toBe(true);
  });
});

describe('mcp-toolkit serve --https-cert --https-key', () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await exitWithin(child, 5_000);
    }
  });

  it('serves HTTPS and prints the https:// URL in its banner', async () => {
    child = spawn(
      process.execPath,
      [
        CLI,
        'serve',
        '--http',
        '--port',
        '0',
        '--https-cert',
        path.join(dir, 'cert.pem'),
        '--https-key',
        path.join(dir, 'key.pem'),
        dir,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL in the banner: ${stderr}`)), 10_000);
      child!.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /https:\/\/127\.0\.0\.1:\d+\/mcp/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      });
    });
    const client = await connectClient('v2-modern', new HttpV2(new URL(url), { fetch: trustingFetch() }));
    try {
      expect(await client.toolNames()).toContain('read_document');
    } finally {
      await client.close();
    }
  });

  it('refuses a certificate without its key, naming both flags', async () => {
    const lone = spawn(process.execPath, [CLI, 'serve', '--http', '--https-cert', path.join(dir, 'cert.pem'), dir], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    lone.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitWithin(lone, 10_000)).toBe(1);
    expect(stderr).toContain('HTTPS needs both --https-cert <file> and --https-key <file>');
  });

  // A wrong file failed when the server started, with OpenSSL's "PEM routines::no start line" naming no flag or file.
  it('refuses a file that is not PEM, naming the flag and the file', async () => {
    const notPem = path.join(dir, 'not-pem.txt');
    writeFileSync(notPem, 'plain words\n');
    const wrong = spawn(
      process.execPath,
      [CLI, 'serve', '--http', '--port', '0', '--https-cert', notPem, '--https-key', path.join(dir, 'key.pem'), dir],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    wrong.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    expect(await exitWithin(wrong, 10_000)).toBe(1);
    expect(stderr).toContain(`--https-cert: ${notPem} is not a PEM file`);
  });
});
