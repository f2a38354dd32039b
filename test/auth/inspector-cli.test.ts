// MCP Inspector's CLI (@modelcontextprotocol/inspector-cli, a real child process speaking Streamable
// HTTP with the v1 SDK) against HttpMcpServer({ authorization }) with tokens from a real authorization
// server (oidc-provider): with a valid bearer header (--header) it gets the same tools/list as the
// v1 and v2 SDK clients (a tool hidden by scope absent, shown with the scope) and can call a tool;
// with a bad token or no token the server answers 401 and the CLI fails (it prints the refusal's
// JSON-RPC body, not the status, so the status is checked with the same request sent directly).
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/registry/tool.js';
import { connectWithToken, useAuthorizedServer } from '../support/bearer-clients.js';
import { CLIENT_KINDS } from '../support/clients.js';

const require = createRequire(import.meta.url);
const CLI = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')),
  'build',
  'index.js',
);

/** Runs the Inspector CLI against `url`; resolves its exit code and output (bounded by a timeout). */
function inspect(url: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, url, '--transport', 'http', ...args],
      // cwd: the CLI checks `../package.json` against the working directory, then imports it from its module.
      { timeout: 30_000, cwd: path.dirname(CLI), env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const names = (stdout: string) =>
  (JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name).sort();

describe('MCP Inspector CLI with a bearer header (OAuth resource server)', () => {
  const fixture = useAuthorizedServer((server) => {
    server.registerTool(defineTool({ name: 'write_note', requiredScopes: ['tools:write'], execute: () => 'written' }));
  });

  it('a valid token: the same tools/list as the SDK clients; a tool hidden by scope is absent', async () => {
    const { as, url } = fixture;
    const reader = await as.token(url, ['tools:read']);
    const cli = await inspect(url, ['--method', 'tools/list', '--header', `Authorization: Bearer ${reader}`]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(names(cli.stdout)).not.toContain('write_note');
    for (const kind of CLIENT_KINDS) {
      const client = await connectWithToken(kind, url, reader);
      expect((await client.toolNames()).sort(), kind).toEqual(names(cli.stdout));
      await client.close();
    }

    const writer = await as.token(url, ['tools:read', 'tools:write']);
    const listed = await inspect(url, ['--method', 'tools/list', '--header', `Authorization: Bearer ${writer}`]);
    expect(names(listed.stdout)).toContain('write_note');
    const called = await inspect(url, [
      '--method',
      'tools/call',
      '--tool-name',
      'write_note',
      '--header',
      `Authorization: Bearer ${writer}`,
    ]);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toMatchObject({ content: [{ type: 'text', text: 'written' }] });
  }, 60_000);

  it('a bad token or none: 401 and the CLI fails', async () => {
    const { url } = fixture;
    const bad = await inspect(url, ['--method', 'tools/list', '--header', 'Authorization: Bearer not-a-real-token']);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toBe('');
    // The CLI prints the JSON-RPC body of the refusal, not the HTTP status (checked directly below).
    expect(bad.stderr).toMatch(/Failed to connect to MCP server.*Unauthorized: the access token/);
    const none = await inspect(url, ['--method', 'tools/list']);
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/Failed to connect to MCP server.*Unauthorized/);
    // The server's answer the CLI met: 401 with the Bearer challenge naming the metadata.
    const direct = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer not-a-real-token',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(direct.status).toBe(401);
    expect(direct.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
  }, 60_000);
});
