// The option keys each server class accepts, checked against the option types by the compiler
// (see optionKeys), so that a misspelled or foreign option fails in the constructor.
import { optionKeys } from '../../known-options.js';
import type { BaseMcpServerOptions } from '../mcp-server.js';
import type { StdioMcpServerOptions } from '../stdio-server.js';
import type { HttpMcpServerOptions, HttpsOptions } from '../transports/http/options.js';

const BASE = [
  'logger',
  'documents',
  'sessionTools',
  'requestStateKey',
  'resourcePageSize',
  'cluster',
  'toolState',
  'tasks',
  'observer',
] as const;

/** Every key of {@link BaseMcpServerOptions} (for subclasses that add none). */
export const BASE_OPTION_KEYS = optionKeys<BaseMcpServerOptions>()(BASE);

/** Every key of {@link StdioMcpServerOptions}. */
export const STDIO_OPTION_KEYS = optionKeys<StdioMcpServerOptions>()([
  ...BASE,
  'stdin',
  'stdout',
  'maxMessageBytes',
  'stdinCloseGraceMs',
  'pingIntervalMs',
  'pingTimeoutMs',
]);

/** Every key of {@link HttpMcpServerOptions}. */
export const HTTP_OPTION_KEYS = optionKeys<HttpMcpServerOptions>()([
  ...BASE,
  'host',
  'port',
  'path',
  'https',
  'stateless',
  'sessionIdleTimeoutMs',
  'maxSessions',
  'sessionLimitPolicy',
  'onSessionEvent',
  'maxListenStreams',
  'dnsRebindingProtection',
  'allowedHosts',
  'allowedOrigins',
  'cors',
  'authenticate',
  'authChallenge',
  'resourceMetadataUrl',
  'maxRequestBodyBytes',
  'healthPath',
  'readyPath',
  'keepAliveMs',
  'pingIntervalMs',
  'pingTimeoutMs',
  'eventStore',
  'app',
]);

/** Every key of {@link HttpsOptions}. */
export const HTTPS_OPTION_KEYS = optionKeys<HttpsOptions>()([
  'key',
  'cert',
  'ca',
  'passphrase',
  'requestCert',
  'rejectUnauthorized',
]);
