import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTarget, serverFileCommand } from '../../src/cli/targets.js';
import { ROOT } from './cli-process.js';

describe('CLI targets', () => {
  it('an http(s) URL is an HTTP target', () => {
    expect(parseTarget('http://127.0.0.1:3000/mcp')).toEqual({
      kind: 'http',
      url: new URL('http://127.0.0.1:3000/mcp'),
    });
  });

  it('a URL with a user name or password is refused without quoting them (fetch cannot send them)', () => {
    expect(() => parseTarget('http://bob:hunter2-pw@127.0.0.1:3000/mcp')).toThrow(
      /^the URL http:\/\/127\.0\.0\.1:3000\/mcp has a user name or password in it/,
    );
    expect(() => parseTarget('https://bob:hunter2-pw@example.test/mcp')).not.toThrow(/hunter2|bob/);
  });

  it('a .ts file runs through the tsx loader, a .js / .mjs file without it', () => {
    const ts = parseTarget(path.join(ROOT, 'examples/dev-server.ts'));
    expect(ts).toMatchObject({ kind: 'file', command: process.execPath });
    expect(ts.kind === 'file' && ts.args).toEqual([
      '--import',
      expect.stringMatching(/^file:\/\/.*\/tsx\/dist\/loader\.mjs$/),
      path.join(ROOT, 'examples/dev-server.ts'),
    ]);
    const js = path.join(ROOT, 'test/fixtures/llm-chat-sleeper.mjs');
    expect(serverFileCommand(js)).toEqual({ command: process.execPath, args: [js] });
  });

  it('anything else is a stdio command line, split as a shell would', () => {
    expect(parseTarget(`npx -y "@scope/some server" --root 'a b'`)).toEqual({
      kind: 'command',
      command: 'npx',
      args: ['-y', '@scope/some server', '--root', 'a b'],
    });
  });

  it('refuses what it cannot run, saying why', () => {
    expect(() => parseTarget('  ')).toThrow(/empty/);
    expect(() => parseTarget('node server.js | tee log')).toThrow(/not a plain command/);
    expect(() => parseTarget('missing-server.ts')).toThrow(/no such file/);
    expect(() => parseTarget(path.join(ROOT, 'README.md'))).toThrow(/neither a \.ts nor a \.js file nor executable/);
  });

  it('an executable file is a command of its own, its path taken whole', () => {
    const bin = path.join(ROOT, 'node_modules/.bin/tsx');
    expect(parseTarget(bin)).toEqual({ kind: 'command', command: bin, args: [] });
    // A bare name of a file here runs that file, not a command of the same name on PATH.
    const cwd = process.cwd();
    try {
      process.chdir(path.dirname(bin));
      expect(parseTarget('tsx')).toEqual({ kind: 'command', command: bin, args: [] });
    } finally {
      process.chdir(cwd);
    }
  });

  it('a folder is refused, not run as a command line', () => {
    expect(() => parseTarget(path.join(ROOT, 'docs'))).toThrow(/docs is a folder: give a server file/);
  });
});
