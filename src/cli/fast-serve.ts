/**
 * `serve --stdio` as MCP clients start it, parsed without commander. A desktop client starts the command again
 * for every session, and loading commander (with the `node:child_process` it requires) was ~11 ms of each start
 * on Node 20 and 24 (docs/performance.md, "Cold start, eleventh round"). Node's own `util.parseArgs` reads the
 * common flags here; anything else (another command, `--help`, an HTTP flag, an unknown or malformed flag, `--`)
 * goes to commander, so every error message and all help stay commander's. `test/cli/fast-serve.test.ts` checks
 * that both give the action the same values.
 */
import type { ParseArgsConfig } from 'node:util';
import { nodeUtil } from '../lazy-module.js';
import { exitOnFailure } from './cli-failure.js';
import { CLI_VERSION } from './cli-version.js';
import { documentLimitFlagNames } from './document-limits.js';
import { runServe, SERVE_DEFAULTS, type ServeFlags } from './serve-command.js';

/** The flags read here: those that apply to stdio and take no list. Each takes one value unless boolean. */
const VALUE_FLAGS = ['ext', 'state-file', 'ping-interval', ...documentLimitFlagNames()];
/** The flags read here, by long name (`test/cli/fast-serve.test.ts` checks each is one of commander's `serve` flags). */
export const FAST_SERVE_OPTIONS: NonNullable<ParseArgsConfig['options']> = {
  stdio: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  'no-watch': { type: 'boolean' },
  ...Object.fromEntries(VALUE_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
};

/** A parsed `serve --stdio` command line: what commander would hand the `serve` action. */
export interface FastServe {
  folder: string | undefined;
  opts: ServeFlags;
}

/** commander's attribute name for a long flag: `state-file` -> `stateFile`. */
function camelCase(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * The `serve` action's folder and flags for `args` (the command line after the script), or undefined when it is
 * anything but `serve [folder] --stdio` with the flags above, each well formed: then commander parses it.
 */
export function fastServeArgs(args: readonly string[]): FastServe | undefined {
  if (args[0] !== 'serve') return undefined;
  let parsed;
  try {
    parsed = nodeUtil().parseArgs({
      args: args.slice(1),
      options: FAST_SERVE_OPTIONS,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch {
    return undefined; // commander says what is wrong, in its words
  }
  const { positionals, tokens } = parsed;
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.stdio !== true || positionals.length > 1 || tokens.some((token) => token.kind === 'option-terminator')) {
    return undefined;
  }
  const opts: ServeFlags = { ...SERVE_DEFAULTS, stdio: true };
  if (values.quiet === true) opts.quiet = true;
  if (values['no-watch'] === true) opts.watch = false;
  const strings = opts as Record<string, unknown>;
  for (const flag of VALUE_FLAGS) {
    const value = values[flag];
    if (typeof value === 'string') strings[camelCase(flag)] = value;
  }
  return { folder: positionals[0], opts };
}

/**
 * Starts serving `args` when {@link fastServeArgs} reads them; a failure ends the process as commander's action
 * would (`exitOnFailure`). Not awaited by the entry, as commander's `parseAsync` was not: a command's pending work
 * is never a pending top-level await.
 * @returns false when the command line is for commander
 */
export function serveFast(args: readonly string[]): boolean {
  const fast = fastServeArgs(args);
  if (!fast) return false;
  void runServe(fast.folder, fast.opts, () => false, CLI_VERSION).catch(exitOnFailure);
  return true;
}
