import { describe, expect, it } from 'vitest';
import { documentLimitFlagNames } from '../../src/cli/document-limits.js';
import { FAST_SERVE_OPTIONS, fastServeArgs } from '../../src/cli/fast-serve.js';
import { buildProgram } from '../../src/cli/program.js';
import type { ServeFlags } from '../../src/cli/serve-command.js';

/** What commander hands the `serve` action for `args`, with whether `--port` / `--host` came from the command line. */
async function commanderServe(args: string[]) {
  let seen: { folder: string | undefined; opts: ServeFlags; port: boolean; host: boolean } | undefined;
  const program = buildProgram((folder, opts, fromCli) => {
    seen = { folder, opts: { ...opts }, port: fromCli('port'), host: fromCli('host') };
    return Promise.resolve();
  });
  await program.parseAsync(['node', 'mcp-toolkit', ...args]);
  return seen;
}

const LIMITS = documentLimitFlagNames().flatMap((flag, i) => [`--${flag}`, String(i + 1)]);

// Command lines a client writes for a stdio server: the fast path must read each exactly as commander does.
const READ_HERE: string[][] = [
  ['serve', '--stdio'],
  ['serve', '--stdio', 'docs'],
  ['serve', 'docs', '--stdio', '-q'],
  ['serve', '--stdio', '--quiet', '--no-watch', '--ext', 'md,txt', '/srv/notes'],
  ['serve', '--stdio', '--ext=md', '--state-file', '/tmp/state.json', 'docs'],
  ['serve', '--stdio', ...LIMITS, 'docs'],
  ['serve', '--stdio', '--cache-size=0', '--max-file-size', 'abc'], // refused later, by documentLimits, for both
  ['serve', '--stdio', '--ping-interval', '30'],
  ['serve', '--stdio', '--ext', 'md', '--ext', 'txt'],
  ['serve', '-q', '--stdio', '--stdio', '-q'],
  ['serve', '--stdio', '--ext', ''],
  ['serve', '--stdio', '--state-file=', 'my docs'],
  ['serve', '--stdio', '-'],
  ['serve', '--stdio', '--ext=-md', '--ping-interval=-5'], // a value after `=` may start with a dash
  ['serve', '--stdio', '-qq'],
];

// Everything else is commander's: other commands, HTTP flags, help, and anything malformed or unknown.
const LEFT_TO_COMMANDER: string[][] = [
  [],
  ['--version'],
  ['list', 'x'],
  ['serve'],
  ['serve', 'docs'],
  ['serve', '--http', '--stdio'],
  ['serve', '--stdio', '--port', '3001'],
  ['serve', '--stdio', '--host=0.0.0.0'],
  ['serve', '--stdio', '--help'],
  ['serve', '--stdio', '-h'],
  ['serve', '--stdio', '--bogus'],
  ['serve', '--stdio', '--watch'],
  ['serve', '--stdio', '--ext'],
  ['serve', '--stdio', '--ext', '-q'],
  ['serve', '--stdio', '--quiet=yes'],
  ['serve', '--stdio', 'a', 'b'],
  ['serve', '--stdio', '--', 'docs'],
  ['serve', '--stdio', '--auth-scope', 'notes:read'],
  ['serve', '--stdio', '--admin'],
  ['serve', '--stdio', '--redis', 'redis://127.0.0.1:6379'],
  ['serve', '--stdio', '--https-cert', 'c.pem'],
  ['serve', '--stdio', '--max-sessions', '3'],
  ['gateway', '--stdio', '--config', 'servers.json'],
  ['serve', '--stdio', '-qh'],
  ['serve', '--stdio', '-V'],
  ['serve', '--stdio', '--version'],
  ['serve', '--stdio=true'],
  ['serve', '--stdio', '--no-watch=1'],
  ['serve', '--stdio', 'docs', '--'],
  ['serve', '--stdio', '--__proto__'],
  ['serve', '--stdio', '--constructor', 'x'],
];

describe('serve --stdio without commander (fast-serve.ts)', () => {
  it.each(READ_HERE.map((args) => [args.join(' '), args]))('reads `%s` as commander does', async (_, args) => {
    const fast = fastServeArgs(args);
    expect(fast).toBeDefined();
    const seen = await commanderServe(args);
    expect(seen).toBeDefined();
    expect(fast!.folder).toBe(seen!.folder);
    expect(fast!.opts).toStrictEqual(seen!.opts);
    expect([seen!.port, seen!.host]).toEqual([false, false]); // the fast path says neither came from the command line
  });

  it.each(LEFT_TO_COMMANDER.map((args) => [args.join(' ') || '(nothing)', args]))(
    'leaves `%s` to commander',
    (_, args) => {
      expect(fastServeArgs(args)).toBeUndefined();
    },
  );

  it('reads every flag of `serve` either as commander does or not at all (a flag added later goes to commander)', async () => {
    const serve = buildProgram().commands.find((command) => command.name() === 'serve')!;
    let read = 0;
    for (const option of serve.options) {
      const args = ['serve', '--stdio', option.long!, ...(option.required || option.optional ? ['1'] : []), 'docs'];
      const fast = fastServeArgs(args);
      if (!fast) continue;
      read++;
      const seen = await commanderServe(args);
      expect({ folder: fast.folder, opts: fast.opts }, args.join(' ')).toStrictEqual({
        folder: seen!.folder,
        opts: seen!.opts,
      });
    }
    // --stdio, --quiet, --no-watch, --ext, --state-file, --ping-interval and the document limits
    expect(read).toBe(6 + documentLimitFlagNames().length);
  });

  it('reads no flag that commander does not declare for `serve`', () => {
    const serve = buildProgram().commands.find((command) => command.name() === 'serve')!;
    const declared = new Set(serve.options.map((option) => option.long));
    for (const [name, { short }] of Object.entries(FAST_SERVE_OPTIONS)) {
      expect(declared, name).toContain(`--${name}`);
      if (short) expect(serve.options.find((option) => option.long === `--${name}`)?.short).toBe(`-${short}`);
    }
  });
});
