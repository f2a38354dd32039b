import type { Command } from 'commander';
import { nodeFs } from '../lazy-module.js';
import type { HttpsOptions } from '../mcp/transports/http/options.js';
import { flagNumber, MAX_TIMER_SECONDS } from './flag-parsers.js';

/** The HTTPS and ping flags of `serve`, as commander parses them (strings). */
export interface TlsFlags {
  /** `--https-cert <file>`: certificate chain (PEM). */
  httpsCert?: string;
  /** `--https-key <file>`: private key (PEM). */
  httpsKey?: string;
  /** `--https-ca <file>`: CA certificates for client certificates (PEM); asks clients for one (mutual TLS). */
  httpsCa?: string;
  /** `--ping-interval <seconds>`. */
  pingInterval?: string;
}

/** Adds `--https-cert`, `--https-key`, `--https-ca` and `--ping-interval` to `command`. */
export function addTlsFlags(command: Command): Command {
  return command
    .option('--https-cert <file>', 'HTTP only: serve HTTPS with this certificate chain (PEM; needs --https-key)')
    .option('--https-key <file>', 'HTTP only: the private key of --https-cert (PEM)')
    .option('--https-ca <file>', 'HTTP only: require client certificates signed by these CAs (PEM; mutual TLS)')
    .option(
      '--ping-interval <seconds>',
      'ping handshake-era clients this often and drop those that stop answering (0 off)',
    );
}

function readPem(flag: string, file: string): string {
  let text: string;
  try {
    text = nodeFs().readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${flag}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
      cause: error,
    });
  }
  // Without this, a wrong file (DER, a key given as the certificate's folder...) fails when the server starts, with
  // OpenSSL's "PEM routines::no start line", which names neither the flag nor the file.
  if (!/-----BEGIN [A-Z0-9 ]+-----/.test(text)) {
    throw new Error(`${flag}: ${file} is not a PEM file (no "-----BEGIN ...-----" line)`);
  }
  return text;
}

/**
 * The `https` option of `HttpMcpServer` from the flags, or undefined without them.
 * @throws Error when only one of `--https-cert` / `--https-key` is given, `--https-ca` comes without them, or a file cannot be read.
 */
export function httpsOptions(flags: TlsFlags): HttpsOptions | undefined {
  const { httpsCert, httpsKey, httpsCa } = flags;
  if (!httpsCert && !httpsKey) {
    if (httpsCa) throw new Error('--https-ca needs --https-cert and --https-key');
    return undefined;
  }
  if (!httpsCert || !httpsKey) throw new Error('HTTPS needs both --https-cert <file> and --https-key <file>');
  return {
    cert: readPem('--https-cert', httpsCert),
    key: readPem('--https-key', httpsKey),
    ...(httpsCa && { ca: readPem('--https-ca', httpsCa), requestCert: true }),
  };
}

/**
 * `--ping-interval` in ms, or undefined when absent.
 * @throws Error when it is not a number of seconds >= 0.
 */
export function pingIntervalMs(flags: TlsFlags): number | undefined {
  if (flags.pingInterval === undefined) return undefined;
  const seconds = flagNumber(flags.pingInterval);
  if (!(seconds >= 0 && seconds <= MAX_TIMER_SECONDS)) {
    throw new Error(
      `--ping-interval must be a number of seconds >= 0 and <= ${MAX_TIMER_SECONDS}, got "${flags.pingInterval}"`,
    );
  }
  return Math.round(seconds * 1000);
}
