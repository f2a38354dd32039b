import { InvalidOptionsError, UpstreamError } from '../errors.js';
import { assertKnownOptions } from '../known-options.js';
import { assertNamespace } from './namespace.js';

/** Reconnection timing of an upstream (ms). */
export interface UpstreamBackoff {
  /** Wait before the first retry. Default 500. */
  initialMs?: number;
  /** Longest wait between retries (the wait doubles up to it, with up to 20% jitter). Default 30000. */
  maxMs?: number;
}

/** What every upstream configuration has. */
interface UpstreamConfigBase {
  /**
   * The upstream's name: its tools are listed as `<namespace>_<tool>` and grouped under this name
   * as their package (settings page, `getToolStates()`). 1-64 characters from `A-Z a-z 0-9 _ -`.
   */
  name: string;
  /** Prefix of its tool names, when it should differ from `name` (same rule). */
  namespace?: string;
  /** Reconnection timing after a failure (see {@link UpstreamBackoff}). */
  backoff?: UpstreamBackoff;
  /** Time limit of one connection attempt, ms. Default 30000. */
  connectTimeoutMs?: number;
  /**
   * Time limit of one forwarded call, ms, restarted by each progress notification. Default 600000
   * (the caller's own cancellation and the tool's `timeoutMs` end a call sooner).
   */
  callTimeoutMs?: number;
  /** Interval of health pings to a connected upstream, ms (a missed one reconnects it); 0 turns them off. Default 15000. */
  pingIntervalMs?: number;
  /**
   * How long a health ping may take to be answered, ms, before the connection counts as lost.
   * Default: `pingIntervalMs`, at most 10000. No new ping is sent while one is unanswered.
   */
  pingTimeoutMs?: number;
}

/** An upstream server started as a child process and spoken to over its stdio. */
export interface StdioUpstreamConfig extends UpstreamConfigBase {
  /** The executable, e.g. `npx` or `node`. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /**
   * Variables added to the child's environment (on top of the SDK's safe default set: `HOME`,
   * `PATH`, ...; this process's other variables are NOT passed on). Never logged or listed.
   */
  env?: Readonly<Record<string, string>>;
  /** The child's working directory (default: this process's). */
  cwd?: string;
  /** HTTP only: refused beside `command` (`InvalidOptionsError`). */
  url?: never;
  /** HTTP only: refused beside `command` (`InvalidOptionsError`). */
  headers?: never;
}

/** An upstream server at a Streamable HTTP endpoint (either protocol era). */
export interface HttpUpstreamConfig extends UpstreamConfigBase {
  /** The MCP endpoint, `http:` or `https:`. */
  url: string;
  /** Headers sent with every request, e.g. `{ Authorization: 'Bearer …' }`. Never logged or listed. */
  headers?: Readonly<Record<string, string>>;
  /** Stdio only: refused beside `url` (`InvalidOptionsError`), as are `args`, `env` and `cwd`. */
  command?: never;
  args?: never;
  env?: never;
  cwd?: never;
}

/** An upstream server: a child process over stdio ({@link StdioUpstreamConfig}) or an HTTP endpoint ({@link HttpUpstreamConfig}). */
export type UpstreamConfig = StdioUpstreamConfig | HttpUpstreamConfig;

/** The fields of either kind of upstream, as a caller may pass them before they are checked. */
type AnyUpstreamFields = Partial<
  Omit<StdioUpstreamConfig, 'url' | 'headers'> & Omit<HttpUpstreamConfig, 'command' | 'args' | 'env' | 'cwd'>
>;

/** A configuration checked and completed with its defaults. */
export type ResolvedUpstreamConfig = UpstreamConfig & {
  readonly namespace: string;
  readonly backoff: Required<UpstreamBackoff>;
  readonly connectTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly pingTimeoutMs: number;
};

function isRecordOfStrings(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string')
  );
}

function positive(name: string, field: string, value: unknown, fallback: number, zeroAllowed = false): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && (value > 0 || (zeroAllowed && value === 0)) && value < 2 ** 31) return value;
  throw new UpstreamError('INVALID_UPSTREAM', name, `Upstream "${name}": ${field} must be a positive number of ms.`);
}

/** The keys of a stdio upstream only ({@link StdioUpstreamConfig}). */
export const STDIO_UPSTREAM_KEYS: ReadonlySet<string> = new Set(['command', 'args', 'env', 'cwd']);
/** The keys of an HTTP upstream only ({@link HttpUpstreamConfig}). */
export const HTTP_UPSTREAM_KEYS: ReadonlySet<string> = new Set(['url', 'headers']);

/** Every key of an upstream configuration, stdio and HTTP. */
const UPSTREAM_KEYS: ReadonlySet<string> = new Set([
  'name',
  'namespace',
  'backoff',
  'connectTimeoutMs',
  'callTimeoutMs',
  'pingIntervalMs',
  'pingTimeoutMs',
  ...STDIO_UPSTREAM_KEYS,
  ...HTTP_UPSTREAM_KEYS,
]);

/**
 * The keys of the other transport given in an upstream entry (`args`, `env` or `cwd` beside `url`; `headers`
 * beside `command`) and why they do not apply, or `undefined` when there are none. An entry with a `url` is an
 * HTTP one, any other a stdio one; a key whose value is `undefined` is not given. The one check of
 * `addUpstream()` and of the gateway's servers file: such a key is known, so it must not pass silently.
 */
export function misplacedTransportKeys(
  entry: Readonly<Record<string, unknown>>,
): { keys: string[]; message: string } | undefined {
  const http = entry.url !== undefined;
  const other = http ? STDIO_UPSTREAM_KEYS : HTTP_UPSTREAM_KEYS;
  const keys = Object.keys(entry).filter((key) => other.has(key) && entry[key] !== undefined);
  if (keys.length === 0) return undefined;
  const [kind, otherKind] = http
    ? ['an HTTP server ("url")', 'a stdio server ("command")']
    : ['a stdio server ("command")', 'an HTTP server ("url")'];
  const verb = keys.length > 1 ? 'do' : 'does';
  const them = keys.length > 1 ? 'them' : 'it';
  return { keys, message: `${keys.join(', ')} ${verb} not apply to ${kind}: only ${otherKind} has ${them}` };
}

/**
 * Checks an upstream configuration and fills in its defaults.
 * @throws UpstreamError (`INVALID_UPSTREAM`) naming the upstream and the field: a bad name or
 *   namespace, neither or both of `command` and `url`, a URL that is not http(s) or that has a user
 *   name or password in it (the message says to use `headers`; it never quotes them), `args` that are
 *   not strings, `env` / `headers` whose values are not strings, a non-positive time.
 * @throws InvalidOptionsError for a key no upstream configuration has (with the nearest known key), and for
 *   a key of the other transport (`args`, `env` or `cwd` beside `url`; `headers` beside `command`), naming
 *   it in `unknownKeys` and the message and saying which kind of upstream has it.
 */
export function resolveUpstreamConfig(config: UpstreamConfig): ResolvedUpstreamConfig {
  const raw = (config ?? {}) as AnyUpstreamFields;
  assertNamespace(raw.name, 'addUpstream() name');
  const name = raw.name;
  const fail = (message: string): never => {
    throw new UpstreamError('INVALID_UPSTREAM', name, `Upstream "${name}": ${message}`);
  };
  // A misspelt key (`comand`) would otherwise be reported as a missing `command`.
  assertKnownOptions(`addUpstream() option (upstream "${name}")`, raw, UPSTREAM_KEYS);
  const namespace = raw.namespace ?? name;
  assertNamespace(namespace, `Upstream "${name}"`);
  const hasCommand = raw.command !== undefined;
  if (hasCommand === (raw.url !== undefined)) fail('give either `command` (stdio) or `url` (Streamable HTTP).');
  const misplaced = misplacedTransportKeys(raw);
  if (misplaced) {
    const owner = `addUpstream() option (upstream "${name}")`;
    throw new InvalidOptionsError(owner, misplaced.keys, `Upstream "${name}": ${misplaced.message}.`);
  }
  if (hasCommand) {
    if (typeof raw.command !== 'string' || raw.command === '') fail('`command` must be a non-empty string.');
    if (raw.args !== undefined && !(Array.isArray(raw.args) && raw.args.every((arg) => typeof arg === 'string'))) {
      fail('`args` must be an array of strings.');
    }
    if (raw.env !== undefined && !isRecordOfStrings(raw.env)) fail('`env` values must be strings.');
    if (raw.cwd !== undefined && typeof raw.cwd !== 'string') fail('`cwd` must be a string.');
  } else {
    let protocol = '';
    try {
      protocol = new URL(String(raw.url)).protocol;
    } catch {
      fail('`url` is not a URL.');
    }
    if (protocol !== 'http:' && protocol !== 'https:') fail('`url` must be an http: or https: URL.');
    // fetch refuses such a URL on every request, so it would be retried forever; the message leaves them out.
    const { username, password } = new URL(String(raw.url));
    if (username || password) {
      fail(
        '`url` contains a user name or password, which cannot be sent in a URL: remove them from it and put them ' +
          'in `headers` instead, e.g. { "Authorization": "Basic <base64 of user:password>" } or "Bearer <token>".',
      );
    }
    if (raw.headers !== undefined && !isRecordOfStrings(raw.headers)) fail('`headers` values must be strings.');
  }
  const backoff = {
    initialMs: positive(name, 'backoff.initialMs', raw.backoff?.initialMs, 500),
    maxMs: positive(name, 'backoff.maxMs', raw.backoff?.maxMs, 30_000),
  };
  const pingIntervalMs = positive(name, 'pingIntervalMs', raw.pingIntervalMs, 15_000, true);
  return {
    ...(raw as UpstreamConfig),
    namespace,
    backoff,
    connectTimeoutMs: positive(name, 'connectTimeoutMs', raw.connectTimeoutMs, 30_000),
    callTimeoutMs: positive(name, 'callTimeoutMs', raw.callTimeoutMs, 600_000),
    pingIntervalMs,
    pingTimeoutMs: positive(name, 'pingTimeoutMs', raw.pingTimeoutMs, Math.min(pingIntervalMs || 10_000, 10_000)),
  };
}

/**
 * The wait before reconnection attempt `failures + 1`, in ms: `initialMs` doubled per failure up to
 * `maxMs`, plus up to 20% jitter so that replicas restarted together do not retry in step.
 */
export function retryDelayMs(backoff: Required<UpstreamBackoff>, failures: number): number {
  return Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(failures - 1, 30)) * (1 + Math.random() * 0.2);
}

/**
 * How an upstream is shown in logs, states and the settings page: the command's file name and its
 * argument count, or the URL without user info, query or fragment. Never its env, headers or args.
 */
export function describeUpstream(config: UpstreamConfig): string {
  if ('url' in config && config.url !== undefined) {
    const url = new URL(config.url);
    return `${url.protocol}//${url.host}${url.pathname}`;
  }
  const { command, args = [] } = config as StdioUpstreamConfig;
  const base = command.split(/[\\/]/).pop() ?? command;
  return `stdio: ${base}${args.length > 0 ? ` (+${args.length} argument${args.length === 1 ? '' : 's'})` : ''}`;
}

/**
 * A function that blanks out of a text (an error message) every secret of the configuration: the
 * values of `env` and `headers` (and each header's bearer token alone), and the URL's user info and
 * query, so that states, logs and the settings page never show them.
 */
export function secretRedactor(config: UpstreamConfig): (text: string) => string {
  const secrets = new Set<string>();
  const values = [
    ...Object.values((config as StdioUpstreamConfig).env ?? {}),
    ...Object.values((config as HttpUpstreamConfig).headers ?? {}),
  ];
  for (const value of values) {
    secrets.add(value);
    const token = /^\S+\s+(\S+)$/.exec(value)?.[1];
    if (token) secrets.add(token);
  }
  if ('url' in config && config.url !== undefined) {
    const url = new URL(config.url);
    for (const part of [url.username, url.password, url.search.slice(1)]) if (part) secrets.add(part);
    if (url.search || url.username) secrets.add(config.url);
  }
  const ordered = [...secrets].filter((secret) => secret.length >= 3).sort((a, b) => b.length - a.length);
  return (text) => ordered.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
}

/**
 * `value` with {@link secretRedactor}'s `redact` applied to every string in it (keys included), for the
 * `data` of an upstream's JSON-RPC error, which a caller gets as it is. Values other than plain
 * objects, arrays and strings come back unchanged; nesting deeper than 32 levels becomes `'[redacted]'`.
 */
export function redactValue(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 32) return '[redacted]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redact(key), redactValue(item, redact, depth + 1)]),
  );
}
