// The admin API's tool-override routes: PUT validates (unknown fields, non-strings, SEP-986 names,
// lengths) and refuses clashes with 409; DELETE clears; GET api/tools shows `exposedName` and `override`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpMcpServer } from '../../src/mcp/http-server.js';
import { call, startAdminServer } from './admin-harness.js';

let server: HttpMcpServer;
let admin: string;
beforeAll(async () => {
  ({ server, admin } = await startAdminServer());
});
afterAll(async () => server?.stop());

describe('admin API: tool overrides', () => {
  it('PUT sets, GET shows, DELETE clears', async () => {
    const put = await call(admin, 'tools/echo/override', {
      method: 'PUT',
      body: { name: 'say', title: 'Say', description: null },
    });
    expect(put.status).toBe(200);
    expect(put.body.tool).toMatchObject({
      name: 'echo',
      exposedName: 'say',
      override: { name: 'say', title: 'Say' },
      description: 'Echoes text back.',
    });
    const listed = await call(admin, 'tools');
    expect(listed.body.tools.find((tool: { name: string }) => tool.name === 'echo').exposedName).toBe('say');
    expect(server.getToolStates().find((row) => row.tool.name === 'echo')?.name).toBe('say');
    const cleared = await call(admin, 'tools/echo/override', { method: 'DELETE' });
    expect(cleared.body.tool).toMatchObject({ exposedName: 'echo', override: null });
    // All fields empty is the same as clearing.
    await call(admin, 'tools/echo/override', { method: 'PUT', body: { name: 'say' } });
    const empty = await call(admin, 'tools/echo/override', { method: 'PUT', body: { name: '', title: '' } });
    expect(empty.body.tool).toMatchObject({ exposedName: 'echo', override: null });
  });

  it('refuses bad input (400), clashes (409) and unknown tools (404), changing nothing', async () => {
    const put = (name: string, body: unknown) => call(admin, `tools/${name}/override`, { method: 'PUT', body });
    const bad = [
      { name: 'has space' },
      { name: 'x'.repeat(129) },
      { colour: 'red' },
      { title: 5 },
      { description: 'd'.repeat(16_385) },
    ];
    for (const body of bad) {
      const answer = await put('echo', body);
      expect([answer.status, answer.body.error.code], JSON.stringify(body).slice(0, 40)).toEqual([
        400,
        'INVALID_REQUEST',
      ]);
    }
    const clash = await put('echo', { name: 'whoami' });
    expect([clash.status, clash.body.error.code]).toEqual([409, 'OVERRIDE_CONFLICT']);
    expect(clash.body.error.message).toMatch(/a tool named "whoami" is registered/);
    await put('fail', { name: 'always_fails' });
    const taken = await put('echo', { name: 'always_fails' });
    expect([taken.status, taken.body.error.message]).toEqual([
      409,
      expect.stringMatching(/the override of "fail" already uses that name/),
    ]);
    const unknown = await put('nope', { title: 'x' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'TOOL_NOT_FOUND']);
    const text = await call(admin, 'tools/echo/override', {
      method: 'PUT',
      body: '{"name":"x"}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(server.getToolStates().find((row) => row.tool.name === 'echo')?.override).toBeUndefined();
  });
});
