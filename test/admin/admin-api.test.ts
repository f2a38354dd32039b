/* eslint-disable @typescript-eslint/no-explicit-any -- the API answers are parsed JSON, asserted field by field */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRouter } from '../../src/admin/admin-router.js';
import { defineTool } from '../../src/registry/tool.js';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { connectClient } from '../support/clients.js';
import { call, startAdminServer, TOKEN } from './admin-harness.js';

let server: HttpMcpServer;
let admin: string;
let mcp: string;
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'admin-api-'));
  writeFileSync(path.join(folder, 'a.md'), '# A\n');
  writeFileSync(path.join(folder, 'broken.pdf'), 'not a pdf at all');
  ({ server, admin, mcp } = await startAdminServer());
  server.registerFolder(folder);
});
afterAll(async () => {
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** Reads SSE frames from `GET api/events` until `until` matches one (bounded by a deadline). */
async function readEvents(until: (event: string, data: any) => boolean, action: () => Promise<void>) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5_000);
  const response = await fetch(new URL('api/events', admin), {
    headers: { Authorization: `Bearer ${TOKEN}` },
    signal: controller.signal,
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const seen: Array<{ event: string; data: any }> = [];
  let buffer = '';
  let acted = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (!event || !data) continue;
        seen.push({ event, data: JSON.parse(data) });
        if (event === 'hello' && !acted) {
          acted = true;
          await action();
        }
        if (until(event, JSON.parse(data))) return seen;
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  throw new Error(`stream ended; saw ${JSON.stringify(seen)}`);
}

describe('admin API: tools', () => {
  it('lists tools with package, description, state and statistics', async () => {
    const { status, body } = await call(admin, 'tools');
    expect(status).toBe(200);
    expect(body.tools.map((tool: any) => [tool.name, tool.package, tool.enabled])).toEqual([
      ['echo', 'basics', true],
      ['fail', 'basics', true],
      ['whoami', null, true],
    ]);
    expect(body.tools[0]).toMatchObject({
      description: 'Echoes text back.',
      stats: { count: 0, errors: 0, p50Ms: null },
    });
    expect(body.disabled).toEqual([]);
  });

  it('counts calls, errors and p50/p95 from finished tool calls', async () => {
    const client = await connectClient('v2-legacy', new HttpV1(new URL(mcp)));
    for (let i = 0; i < 5; i += 1) await client.callTool('echo', { text: 'x' });
    await client.callTool('fail', {});
    await client.close();
    const { body } = await call(admin, 'tools/echo');
    expect(body.tool.stats.count).toBe(5);
    expect(body.tool.stats.errors).toBe(0);
    expect(body.tool.stats.p50Ms).toBeGreaterThanOrEqual(0);
    expect(body.tool.stats.p95Ms).toBeGreaterThanOrEqual(body.tool.stats.p50Ms);
    expect((await call(admin, 'tools/fail')).body.tool.stats).toMatchObject({ count: 1, errors: 1 });
    const stats = await call(admin, 'stats');
    expect(stats.body.statistics).toBe(true);
    expect(stats.body.timeline).toHaveLength(60);
    expect(stats.body.timeline.reduce((sum: number, point: any) => sum + point.calls, 0)).toBe(6);
    expect(stats.body.tools.fail.errors).toBe(1);
  });

  it('toggles one tool; unknown tool 404; bad JSON 400; invalid body 400; wrong media type 415', async () => {
    const off = await call(admin, 'tools/echo', { method: 'PATCH', body: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.tool).toMatchObject({ name: 'echo', enabled: false });
    expect(server.tools.disabledNames()).toEqual(['echo']);
    const on = await call(admin, 'tools/echo', { method: 'PATCH', body: { enabled: true } });
    expect(on.body.tool.enabled).toBe(true);

    const unknown = await call(admin, 'tools/nope', { method: 'PATCH', body: { enabled: false } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'TOOL_NOT_FOUND', message: expect.stringContaining('nope') });
    expect((await call(admin, 'tools/nope')).status).toBe(404);

    const badJson = await call(admin, 'tools/echo', { method: 'PATCH', body: '{"enabled":' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.code).toBe('BAD_JSON');

    const invalid = await call(admin, 'tools/echo', { method: 'PATCH', body: { enabled: 'no' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('enabled') });
    const extra = await call(admin, 'tools/echo', { method: 'PATCH', body: { enabled: true, other: 1 } });
    expect(extra.status).toBe(400);

    const form = await call(admin, 'tools/echo', {
      method: 'PATCH',
      body: 'enabled=false',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(415);
    expect(server.tools.disabledNames()).toEqual([]);
  });

  it('replaces the disabled set (unregistered names kept) and validates it', async () => {
    const put = await call(admin, 'disabled', { method: 'PUT', body: { disabled: ['fail', 'future_tool'] } });
    expect(put.status).toBe(200);
    expect(put.body.disabled).toEqual(['fail', 'future_tool']);
    expect((await call(admin, 'disabled')).body.disabled).toEqual(['fail', 'future_tool']);
    expect((await call(admin, 'tools/fail')).body.tool.enabled).toBe(false);
    expect((await call(admin, 'disabled', { method: 'PUT', body: { disabled: 'fail' } })).status).toBe(400);
    expect((await call(admin, 'disabled', { method: 'PUT', body: { disabled: [''] } })).status).toBe(400);
    expect((await call(admin, 'disabled', { method: 'PUT', body: '[1,' })).status).toBe(400);
    expect((await call(admin, 'disabled', { method: 'PUT', body: { disabled: [] } })).body.disabled).toEqual([]);
  });

  it('answers unknown routes with a JSON 404', async () => {
    const { status, body } = await call(admin, 'nothing-here');
    expect(status).toBe(404);
    expect(body.error.code).toBe('NOT_FOUND');
  });
});

describe('admin API: sessions and documents', () => {
  it('lists sessions with era, client and times, and closes one (its client then gets 404)', async () => {
    const transport = new HttpV1(new URL(mcp));
    const client = await connectClient('v1', transport);
    const { body } = await call(admin, 'sessions');
    expect(body.supported).toBe(true);
    const mine = body.sessions.find((session: any) => session.id === transport.sessionId);
    expect(mine).toMatchObject({ era: 'legacy', client: { name: 'contract-v1', version: '1.0.0' } });
    expect(mine.ageMs).toBeGreaterThanOrEqual(0);
    expect(mine.idleMs).toBeGreaterThanOrEqual(0);
    expect((await call(admin, `sessions/${transport.sessionId}`, { method: 'DELETE' })).status).toBe(204);
    const again = await call(admin, `sessions/${transport.sessionId}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('SESSION_NOT_FOUND');
    await expect(client.toolNames()).rejects.toThrow();
    await client.close().catch(() => {});
  });

  it('counts a timed-out or cancelled call as aborted, not as an error', async () => {
    const handle = server.registerTool(
      defineTool({
        name: 'stalls',
        description: 'Waits until it is aborted.',
        timeoutMs: 50,
        execute: (_args, context) =>
          new Promise((_, reject) => context.signal.addEventListener('abort', () => reject(context.signal.reason))),
      }),
    );
    try {
      const client = await connectClient('v2-legacy', new HttpV1(new URL(mcp)));
      expect((await client.callTool('stalls', {})).isError).toBe(true);
      await client.close();
      expect((await call(admin, 'tools/stalls')).body.tool.stats).toMatchObject({ count: 1, errors: 0, aborted: 1 });
      const stats = await call(admin, 'stats');
      expect(stats.body.tools.stalls).toMatchObject({ errors: 0, aborted: 1 });
    } finally {
      handle.remove();
    }
  });

  it('lists documents and folders, and records converter errors', async () => {
    const client = await connectClient('v1', new HttpV1(new URL(mcp)));
    const broken = (await client.resources()).find((resource) => resource.name === 'broken.pdf')!;
    await expect(client.readResource(broken.uri)).rejects.toThrow();
    await client.close();
    const { status, body } = await call(admin, 'documents');
    expect(status).toBe(200);
    expect(body.served).toBe(true);
    expect(body.count).toBeGreaterThanOrEqual(2);
    expect(body.folders).toEqual([expect.objectContaining({ count: 2 })]);
    expect(body.documents.map((doc: any) => doc.name).sort()).toEqual(['a.md', 'broken.pdf']);
    expect(body.converterErrors.count).toBe(1);
    expect(body.converterErrors.recent[0]).toMatchObject({ uri: broken.uri, code: 'CONVERSION_FAILED' });
  });
});

describe('admin API: live events', () => {
  it('streams tool toggles, session changes and finished calls', async () => {
    const seen = await readEvents(
      (event) => event === 'toolCallsFinished',
      async () => {
        server.disableTool('whoami');
        server.enableTool('whoami');
        const client = await connectClient('v1', new HttpV1(new URL(mcp)));
        await client.callTool('echo', { text: 'x' });
        await client.close();
      },
    );
    const events = seen.map((entry) => entry.event);
    expect(events[0]).toBe('hello');
    expect(seen).toContainEqual({ event: 'toolToggled', data: { name: 'whoami', enabled: false } });
    expect(events).toContain('sessionCreated');
    expect(seen.at(-1)!.data.calls[0]).toMatchObject({ name: 'echo', isError: false });
  });

  it('streams document changes', async () => {
    writeFileSync(path.join(folder, 'single.txt'), 'one file\n');
    const seen = await readEvents(
      (event) => event === 'documentChanged',
      async () => void server.registerDocument(path.join(folder, 'single.txt')),
    );
    expect(seen.at(-1)!.event).toBe('documentChanged');
  });
});

describe('admin API: security', () => {
  it('no token 401, wrong token 401 with a challenge, cookie-only 401', async () => {
    const none = await call(admin, 'tools', { headers: { Authorization: '' } });
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHENTICATED');
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const wrong = await call(admin, 'tools', { headers: { Authorization: 'Bearer wrong-token-wrong-token' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.message).toMatch(/wrong/);
    const cookie = await call(admin, 'tools/echo', {
      method: 'PATCH',
      body: { enabled: false },
      headers: { Authorization: '', Cookie: `token=${TOKEN}` },
    });
    expect(cookie.status).toBe(401);
    expect((await call(admin, 'events', { headers: { Authorization: '' } })).status).toBe(401);
    expect(server.tools.disabledNames()).toEqual([]);
  });

  it('foreign Origin 403 and foreign Host 403, page included', async () => {
    const origin = await call(admin, 'tools', { headers: { Origin: 'https://evil.example' } });
    expect(origin.status).toBe(403);
    expect(origin.body.error.code).toBe('FORBIDDEN_ORIGIN');
    const patch = await call(admin, 'tools/echo', {
      method: 'PATCH',
      body: { enabled: false },
      headers: { Origin: 'https://evil.example' },
    });
    expect(patch.status).toBe(403);
    const url = new URL(admin);
    const hostStatus = await new Promise<number>((resolve, reject) => {
      const request = http.get(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { Host: 'evil.example' } },
        (response) => {
          response.resume();
          resolve(response.statusCode!);
        },
      );
      request.on('error', reject);
    });
    expect(hostStatus).toBe(403);
    expect((await fetch(admin, { headers: { Origin: `http://localhost:${url.port}` } })).status).toBe(200);
  });

  it('GET cluster and cluster/sessions without a cluster: supported false', async () => {
    expect((await call(admin, 'cluster')).body).toEqual({ supported: false });
    expect((await call(admin, 'cluster/sessions')).body).toEqual({ supported: false, sessions: [] });
  });

  it('an Origin must match scheme, host and port: another port or scheme of the same host is refused', async () => {
    const port = new URL(admin).port;
    const status = async (origin: string, where = admin) =>
      (await call(where, 'tools', { headers: { Origin: origin } })).status;
    const other = await call(admin, 'tools/echo', {
      method: 'PATCH',
      body: { enabled: false },
      headers: { Origin: 'http://127.0.0.1:9999' },
    });
    expect(other.status).toBe(403);
    expect(other.body.error).toMatchObject({ code: 'FORBIDDEN_ORIGIN' });
    expect(other.body.error.message).toContain('http://127.0.0.1:9999');
    expect(server.tools.disabledNames()).toEqual([]);
    expect(await status(`https://127.0.0.1:${port}`)).toBe(403);
    expect(await status('http://127.0.0.1')).toBe(403); // port 80
    expect(await status('null')).toBe(403);
    // The page's own origin, and a default hostname on the same scheme and port, pass.
    expect(await status(`http://127.0.0.1:${port}`)).toBe(200);
    expect(await status(`http://localhost:${port}`)).toBe(200);
    // A full origin in allowedOrigins is matched exactly.
    const app = express();
    app.use('/o', adminRouter(server, { token: TOKEN, allowedOrigins: ['http://127.0.0.1:9999'] }));
    const listener = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    const base = `http://127.0.0.1:${(listener.address() as { port: number }).port}/o/`;
    expect(await status('http://127.0.0.1:9999', base)).toBe(200);
    expect(await status('http://127.0.0.1:9998', base)).toBe(403);
    await new Promise((resolve) => listener.close(resolve));
  });

  it('serves the page with a strict CSP and redirects /admin to /admin/', async () => {
    const page = await fetch(admin);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('MCP server settings');
    const bare = await fetch(admin.replace(/\/$/, ''), { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/admin/');
  });

  it('refuses non-loopback peers unless allowRemote, and refuses to start without credentials', async () => {
    expect(() => adminRouter(server, {})).toThrow(/token/);
    expect(() => adminRouter(server, { token: 'short' })).toThrow(/16 characters/);
    const app = express();
    app.use((req, _res, next) => {
      Object.defineProperty(req.socket, 'remoteAddress', { value: '203.0.113.9', configurable: true });
      next();
    });
    app.use('/a', adminRouter(server, { token: TOKEN }));
    app.use('/b', adminRouter(server, { token: TOKEN, allowRemote: true }));
    const listener = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    const port = (listener.address() as { port: number }).port;
    const headers = { Authorization: `Bearer ${TOKEN}` };
    const remote = await fetch(`http://127.0.0.1:${port}/a/api/tools`, { headers });
    expect(remote.status).toBe(403);
    const refusal = ((await remote.json()) as any).error;
    expect(refusal.code).toBe('FORBIDDEN_REMOTE');
    expect(refusal.message).toContain('SSH tunnel'); // what a CLI user can do: the CLI has no allowRemote flag
    expect((await fetch(`http://127.0.0.1:${port}/b/api/tools`, { headers })).status).toBe(200);
    await new Promise((resolve) => listener.close(resolve));
  });

  it('accepts a custom authenticate instead of the token', async () => {
    const app = express();
    app.use('/x', adminRouter(server, { authenticate: (req) => req.headers['x-admin'] === 'yes' }));
    const listener = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    const port = (listener.address() as { port: number }).port;
    expect((await fetch(`http://127.0.0.1:${port}/x/api/tools`, { headers: { 'X-Admin': 'yes' } })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/x/api/tools`)).status).toBe(401);
    await new Promise((resolve) => listener.close(resolve));
  });
});
