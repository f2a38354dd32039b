import { MissingDependencyError } from '../errors.js';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseShell } from 'shell-quote';

/**
 * What `mcp-toolkit dev`, `call` and `list` talk to:
 * - `file`: the app's own server file (`.ts`, `.mts`, `.cts` run through tsx; `.js`, `.mjs`, `.cjs` by node),
 *   spoken to over its stdio;
 * - `command`: any stdio server, as a command line (`"npx -y @modelcontextprotocol/server-everything"`);
 * - `http`: a Streamable HTTP endpoint (`http://127.0.0.1:3000/mcp`).
 */
export type Target =
  | { kind: 'file'; file: string; command: string; args: string[] }
  | { kind: 'command'; command: string; args: string[] }
  | { kind: 'http'; url: URL };

const TYPESCRIPT = /\.(c|m)?tsx?$/i;
const JAVASCRIPT = /\.(c|m)?js$/i;

/** True for a file name that Node runs only through a TypeScript loader. */
export function isTypeScriptFile(file: string): boolean {
  return TYPESCRIPT.test(file);
}

/**
 * The `file://` URL of tsx's ESM loader (`node --import <url> server.ts`), resolved from this package
 * so it works from any folder. Only resolved, never imported here: tsx loads only in the server's
 * process, and only for a TypeScript file.
 * @throws MissingDependencyError when `tsx` (an optional peer dependency) is not installed.
 */
export function tsxLoaderUrl(): string {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  } catch (error) {
    throw new MissingDependencyError('tsx', 'running a TypeScript server file', { cause: error });
  }
}

/** The node command line that runs a server file: `node [--import tsx] <file>`. */
export function serverFileCommand(file: string): { command: string; args: string[] } {
  const absolute = path.resolve(file);
  const loader = isTypeScriptFile(absolute) ? ['--import', tsxLoaderUrl()] : [];
  return { command: process.execPath, args: [...loader, absolute] };
}

/**
 * Reads a target as typed on the command line: an `http(s)://` URL, an existing `.ts`/`.js` file, or
 * else a stdio command line split as a POSIX shell would (quotes, escapes; no pipes or redirections).
 * @throws Error naming the problem when the text is empty, a URL has a user name or password in it
 *   (not quoted), a file has an extension Node cannot run, or the command uses shell operators.
 */
export function parseTarget(text: string): Target {
  const trimmed = text.trim();
  if (!trimmed) throw new Error('the target is empty: give a server file, a stdio command or an http:// URL');
  if (/^https?:\/\//i.test(trimmed)) {
    const url = new URL(trimmed);
    // fetch refuses it; and the URL is quoted in messages, so say so without quoting it.
    if (url.username || url.password) {
      throw new Error(
        `the URL ${url.protocol}//${url.host}${url.pathname} has a user name or password in it, which cannot be sent in a URL: remove them`,
      );
    }
    return { kind: 'http', url };
  }
  if (existsSync(trimmed) && statSync(trimmed).isDirectory()) {
    throw new Error(`${trimmed} is a folder: give a server file, a stdio command or a URL`);
  }
  if (existsSync(trimmed) && statSync(trimmed).isFile()) {
    if (TYPESCRIPT.test(trimmed) || JAVASCRIPT.test(trimmed)) {
      return { kind: 'file', file: path.resolve(trimmed), ...serverFileCommand(trimmed) };
    }
    // An executable (a package's bin, a compiled server) is run as it is, its path taken whole (spaces and all)
    // and made absolute: a bare name (`my-server` in this folder) would be looked up on PATH instead.
    if (isExecutable(trimmed)) return { kind: 'command', command: path.resolve(trimmed), args: [] };
    throw new Error(
      `${trimmed} is neither a .ts nor a .js file nor executable: give a server file, a stdio command or a URL`,
    );
  }
  const words = parseShell(trimmed, (name) => process.env[name] ?? '');
  const args: string[] = [];
  for (const word of words) {
    if (typeof word !== 'string') {
      throw new Error(`"${trimmed}" is not a plain command: pipes, redirections and globs are not run`);
    }
    args.push(word);
  }
  const [command, ...rest] = args;
  if (!command) throw new Error(`"${trimmed}" names no command`);
  if (rest.length === 0 && (TYPESCRIPT.test(command) || JAVASCRIPT.test(command))) {
    throw new Error(`${command}: no such file`);
  }
  return { kind: 'command', command, args: rest };
}

/** The target as a person would retype it (for messages). */
export function describeTarget(target: Target): string {
  if (target.kind === 'http') return target.url.href;
  if (target.kind === 'file') return target.file;
  return [target.command, ...target.args].join(' ');
}

/** Whether this process may run the file (its execute permission; on Windows, whether it exists). */
function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
