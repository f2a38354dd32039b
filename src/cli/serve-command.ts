import path from 'node:path';
import { adminToken, defaultStateFile } from './admin-setup.js';
import { documentLimits } from './document-limits.js';
import { parseExtensions, parsePort, parseRedisUnavailable, resolveFolder } from './flag-parsers.js';
import { defaultFolder, serveHttpFolder, serveStdioFolder } from './serve.js';
import { sessionOptions, type SessionFlags } from './session-flags.js';
import { httpsOptions, pingIntervalMs, type TlsFlags } from './tls-flags.js';

/** Options of `serve` as commander parses them (strings; `watch` is false after `--no-watch`). */
export interface ServeFlags extends SessionFlags, TlsFlags {
  authIssuer?: string;
  authAudience?: string;
  authScope?: string[];
  stdio?: boolean;
  http?: boolean;
  port?: string;
  host?: string;
  ext?: string;
  quiet?: boolean;
  watch?: boolean;
  redis?: string;
  redisUnavailable?: string;
  admin?: boolean;
  adminToken?: string;
  stateFile?: string;
}

/** The values `serve` gives flags left out: commander's defaults, and the stdio fast path's (`fast-serve.ts`). */
export const SERVE_DEFAULTS = { port: '3000', host: '127.0.0.1', watch: true } as const;

/**
 * Runs `serve` once its flags are parsed (by commander, or by `fastServeArgs` for a plain stdio start) and
 * serves until stopped by SIGINT or SIGTERM.
 * @param folder - the `[folder]` argument, undefined for the package's docs/ folder
 * @param fromCli - whether a flag (`port`, `host`) was given on the command line rather than defaulted
 * @throws Error naming the flag for a flag combination or value `serve` refuses; whatever starting the server
 *   throws (a `ToolkitError`, `EADDRINUSE`)
 */
export async function runServe(
  folder: string | undefined,
  opts: ServeFlags,
  fromCli: (flag: 'port' | 'host') => boolean,
  version: string,
): Promise<void> {
  if (opts.stdio && opts.http) throw new Error('choose one transport: --stdio or --http');
  if (opts.stdio && opts.redis) throw new Error('--redis needs --http: replicas serve one HTTP endpoint');
  const redisUnavailable = parseRedisUnavailable(opts);
  for (const flag of ['port', 'host'] as const) {
    if (opts.stdio && fromCli(flag)) throw new Error(`--${flag} needs HTTP: drop --stdio`);
  }
  const target = resolveFolder(folder ?? defaultFolder());
  const extensions = parseExtensions(opts.ext);
  if (opts.stdio && (opts.admin || opts.adminToken)) {
    throw new Error(`${opts.admin ? '--admin' : '--admin-token'} needs HTTP: drop --stdio`);
  }
  if (opts.stdio && (opts.sessionIdleTimeout ?? opts.maxSessions ?? opts.sessionLimitPolicy) !== undefined) {
    throw new Error('--session-idle-timeout, --max-sessions and --session-limit-policy need HTTP: drop --stdio');
  }
  if (opts.stdio && (opts.authIssuer || opts.authAudience || opts.authScope)) {
    throw new Error('--auth-issuer (and --auth-audience, --auth-scope) need HTTP: drop --stdio');
  }
  // Before the files are read: with --stdio, a missing certificate is not the mistake to report.
  if (opts.stdio && (opts.httpsCert || opts.httpsKey || opts.httpsCa)) {
    throw new Error('--https-cert, --https-key and --https-ca need HTTP: drop --stdio');
  }
  const https = httpsOptions(opts);
  // With --redis the cluster keeps the disabled set; --state-file would take it over (one replica's file).
  const stateFile = opts.stateFile
    ? path.resolve(opts.stateFile)
    : opts.admin && !opts.redis
      ? defaultStateFile(target)
      : undefined;
  const limits = documentLimits(opts as Record<string, unknown>); // the limit flags, by camel-case name
  const common = {
    folder: target,
    extensions,
    quiet: opts.quiet,
    watch: opts.watch !== false,
    stateFile,
    limits,
    pingIntervalMs: pingIntervalMs(opts),
  };
  const token = opts.admin || opts.adminToken ? adminToken(opts.adminToken) : undefined;
  const admin = token ? { adminToken: token.token, adminTokenGenerated: token.generated } : {};
  const server = opts.stdio
    ? await serveStdioFolder(common, version)
    : await serveHttpFolder(
        {
          ...common,
          ...admin,
          host: opts.host,
          port: parsePort(opts.port ?? SERVE_DEFAULTS.port),
          redis: opts.redis,
          https,
          ...(opts.authIssuer && {
            authorization: {
              issuer: opts.authIssuer,
              ...(opts.authAudience && { audience: opts.authAudience }),
              ...(opts.authScope && { requiredScopes: opts.authScope }),
            },
          }),
          redisUnavailable,
          ...sessionOptions(opts),
        },
        version,
      );
  const shutdown = () => void server.stop().then(() => process.exit(0));
  process.once('SIGINT', shutdown).once('SIGTERM', shutdown);
  if ('waitUntilClosed' in server) await server.waitUntilClosed();
}
