// The pure parts of composition: namespaced names (SEP-986), the mcpServers file, config checks,
// secret redaction, and the registry's one-change replace.
import { describe, expect, it } from 'vitest';
import { namespacedName } from '../../src/composition/namespace.js';
import { parseServersConfig } from '../../src/composition/servers-config.js';
import { redactValue, resolveUpstreamConfig, secretRedactor } from '../../src/composition/upstream-config.js';
import { InvalidOptionsError, UpstreamError } from '../../src/errors.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { ToolRegistry, type RegistryChange } from '../../src/registry/tool-registry.js';

const SEP_986 = /^[A-Za-z0-9_.-]{1,128}$/;

describe('namespacedName', () => {
  it('joins with "_" and keeps valid names as they are', () => {
    expect(namespacedName('github', 'create_issue')).toBe('github_create_issue');
    expect(namespacedName('fs', 'read.file-v2')).toBe('fs_read.file-v2');
  });

  it('makes any upstream name valid: other characters become "_", long names end in a stable hash', () => {
    expect(namespacedName('ns', 'weird name/é')).toBe('ns_weird_name__');
    const long = namespacedName('ns', 'x'.repeat(200));
    const other = namespacedName('ns', `${'x'.repeat(199)}y`);
    expect(long).toMatch(SEP_986);
    expect(long).toHaveLength(128);
    expect(long).not.toBe(other);
    expect(namespacedName('ns', 'x'.repeat(200))).toBe(long);
  });
});

describe('parseServersConfig (the mcpServers format)', () => {
  it('reads stdio and HTTP entries, skips disabled ones, and makes keys into names', () => {
    const text = JSON.stringify({
      mcpServers: {
        'my files': { command: 'npx', args: ['-y', 'server'], env: { A: 'b' } },
        remote: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer t' } },
        off: { command: 'x', disabled: true },
      },
    });
    expect(parseServersConfig(text, 'servers.json')).toEqual([
      { name: 'my_files', command: 'npx', args: ['-y', 'server'], env: { A: 'b' } },
      { name: 'remote', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer t' } },
    ]);
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['no mcpServers', '{}', /expected \{ "mcpServers"/],
    ['a typo', JSON.stringify({ mcpServers: { a: { command: 'x', arg: [] } } }), /"a": unknown key arg/],
    [
      'a stdio key beside a url',
      JSON.stringify({ mcpServers: { a: { url: 'http://x/mcp', args: ['x'] } } }),
      /"a": args does not apply to an HTTP server \("url"\)/,
    ],
    [
      'headers beside a command',
      JSON.stringify({ mcpServers: { a: { command: 'x', headers: {}, url2: 1 } } }),
      /"a": headers does not apply to a stdio server \("command"\)/,
    ],
    ['sse', JSON.stringify({ mcpServers: { a: { type: 'sse', url: 'http://x/sse' } } }), /HTTP\+SSE/],
    ['a clash', JSON.stringify({ mcpServers: { 'a b': { command: 'x' }, a_b: { command: 'y' } } }), /both become/],
    [
      'a "disabled" string',
      JSON.stringify({ mcpServers: { a: { command: 'x', disabled: 'true' } } }),
      /"disabled" must be true or false/,
    ],
    [
      'command and url',
      JSON.stringify({ mcpServers: { a: { command: 'x', url: 'http://x/mcp' } } }),
      /either "command".*or "url"/,
    ],
    [
      'a syntax error, with its line and column',
      '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}',
      /line 3, column \d+/,
    ],
  ])('refuses %s, naming the file', (_case, text, message) => {
    expect(() => parseServersConfig(text, '/etc/servers.json')).toThrow(message);
    expect(() => parseServersConfig(text, '/etc/servers.json')).toThrow(/\/etc\/servers\.json/);
  });
});

it('parseServersConfig reads a file that starts with a byte-order mark', () => {
  const text = `\uFEFF${JSON.stringify({ mcpServers: { a: { command: 'x' } } })}`;
  expect(parseServersConfig(text, 'servers.json')).toEqual([{ name: 'a', command: 'x' }]);
});

describe('resolveUpstreamConfig', () => {
  it.each([
    [{ name: 'bad name', command: 'x' }, /namespace "bad name"/],
    [{ name: 'a' }, /either `command`/],
    [{ name: 'a', command: 'x', url: 'http://x' }, /either `command`/],
    [{ name: 'a', url: 'ftp://x' }, /http: or https:/],
    [{ name: 'a', command: 'x', env: { A: 1 } }, /`env` values must be strings/],
    [{ name: 'a', command: 'x', backoff: { initialMs: -1 } }, /backoff.initialMs/],
    [{ name: 'a', command: 'x', pingTimeoutMs: 0 }, /pingTimeoutMs/],
    [{ name: 'a', url: 'http://alice:pw-77@host.test/mcp' }, /user name or password.*put them in `headers`/],
    [{ name: 'a', url: 'https://tok-88@host.test/mcp' }, /user name or password/],
  ])('refuses %j with INVALID_UPSTREAM', (config, message) => {
    expect(() => resolveUpstreamConfig(config as never)).toThrow(message);
    expect(() => resolveUpstreamConfig(config as never)).toThrow(UpstreamError);
    // Never quoting a credential of the URL.
    expect(() => resolveUpstreamConfig(config as never)).not.toThrow(/alice|pw-77|tok-88/);
  });

  it.each([
    [{ name: 'a', url: 'http://x/mcp', args: ['--port', '1'] }, ['args'], /"a": args does not apply to an HTTP server/],
    [
      { name: 'a', url: 'http://x/mcp', env: { A: 'b' }, cwd: '/tmp' },
      ['env', 'cwd'],
      /env, cwd do not apply to an HTTP/,
    ],
    [{ name: 'a', command: 'x', headers: { A: 'b' } }, ['headers'], /headers does not apply to a stdio server/],
  ])('refuses %j with InvalidOptionsError naming the key of the other transport', (config, keys, message) => {
    const error = (() => {
      try {
        resolveUpstreamConfig(config as never);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidOptionsError);
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS', unknownKeys: keys, message });
    const them = keys.length > 1 ? 'them' : 'it';
    expect((error as Error).message).toMatch(
      new RegExp(`only (a stdio|an HTTP) server \\("(command|url)"\\) has ${them}\\.$`),
    );
  });

  it('accepts a key of the other transport whose value is undefined (not given)', () => {
    expect(resolveUpstreamConfig({ name: 'a', command: 'x', headers: undefined })).toMatchObject({ command: 'x' });
    expect(resolveUpstreamConfig({ name: 'a', url: 'http://x/mcp', args: undefined })).toMatchObject({
      url: 'http://x/mcp',
    });
  });

  it('addUpstream() refuses a misplaced key before anything starts, the servers file names it the same way', () => {
    const server = new HttpMcpServer({ name: 'gw', version: '1' }, { port: 0 });
    expect(() => server.addUpstream({ name: 'a', url: 'http://x/mcp', args: ['x'] } as never)).toThrow(
      InvalidOptionsError,
    );
    expect(() => server.addUpstream({ name: 'b', command: 'x', headers: { A: 'b' } } as never)).toThrow(
      'Upstream "b": headers does not apply to a stdio server ("command"): only an HTTP server ("url") has it.',
    );
    expect(server.upstreams).toEqual([]);
    const file = JSON.stringify({ mcpServers: { b: { command: 'x', headers: { A: 'b' } } } });
    expect(() => parseServersConfig(file, 'servers.json')).toThrow(
      'servers.json: "b": headers does not apply to a stdio server ("command"): only an HTTP server ("url") has it',
    );
  });

  it.each([
    [{}, 15_000, 10_000],
    [{ pingIntervalMs: 300 }, 300, 300],
    [{ pingIntervalMs: 300, pingTimeoutMs: 5_000 }, 300, 5_000],
    [{ pingIntervalMs: 0 }, 0, 10_000],
  ])('ping settings %j resolve to interval %d ms and timeout %d ms', (ping, interval, timeout) => {
    const resolved = resolveUpstreamConfig({ name: 'a', command: 'x', ...ping });
    expect([resolved.pingIntervalMs, resolved.pingTimeoutMs]).toEqual([interval, timeout]);
  });
});

describe('redactValue', () => {
  it('blanks every string of a JSON value, keys too, and leaves other values', () => {
    const redact = secretRedactor({ name: 'a', command: 'x', env: { T: 'env-789' } });
    const data = { detail: 'key=env-789', list: [1, true, null, 'env-789'], 'env-789': { deep: 'env-789!' } };
    expect(redactValue(data, redact)).toEqual({
      detail: 'key=[redacted]',
      list: [1, true, null, '[redacted]'],
      '[redacted]': { deep: '[redacted]!' },
    });
  });
});

describe('secretRedactor', () => {
  it('blanks env and header values, bearer tokens alone, and URL credentials', () => {
    const redact = secretRedactor({
      name: 'a',
      url: 'https://user:pw-123@example.test/mcp?key=q-secret',
      headers: { Authorization: 'Bearer tok-456' },
    });
    expect(redact('got tok-456 and pw-123 and key=q-secret')).toBe('got [redacted] and [redacted] and [redacted]');
    expect(secretRedactor({ name: 'b', command: 'x', env: { T: 'env-789' } })('spawn env-789')).toBe(
      'spawn [redacted]',
    );
  });
});

describe('ToolRegistry.replace', () => {
  it('removes and adds as one change, keeps names taken by others, and compiles first', () => {
    const registry = new ToolRegistry();
    const local = defineTool({ name: 'ns_b', execute: () => 'local' });
    const a1 = defineTool({ name: 'ns_a', execute: () => '1' });
    registry.register(local);
    registry.replace([], [a1], 'ns');
    const changes: RegistryChange[] = [];
    registry.onChange((change) => changes.push(change));
    const a2 = defineTool({ name: 'ns_a', execute: () => '2' });
    const clash = defineTool({ name: 'ns_b', execute: () => 'upstream' });
    const skipped = registry.replace([a1], [a2, clash], 'ns');
    expect(skipped).toEqual([clash]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ added: [a2], removed: [a1], toolsChanged: true });
    expect(registry.get('ns_a')).toBe(a2);
    expect(registry.get('ns_b')).toBe(local);
    expect(registry.snapshot().find((row) => row.tool === a2)?.packageName).toBe('ns');
    const broken = defineTool({ name: 'ns_c', inputSchema: { type: 'string' } as never, execute: () => '' });
    expect(() => registry.replace([a2], [broken])).toThrow();
    expect(registry.get('ns_a')).toBe(a2); // nothing changed
  });
});
