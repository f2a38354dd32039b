// The type and range of every HttpMcpServer / toFetchHandler option value (see option-values.ts),
// checked before the defaults are applied, so that `port: '3000'` or `allowedHosts: 'a.com'` is
// refused with the option's name instead of failing later inside express or the SDK.
import {
  anyOf,
  BOOLEAN,
  countRule,
  FUNCTION,
  msRule,
  numberRule,
  OBJECT,
  oneOf,
  STRING,
  STRING_ARRAY,
  valueRule,
  withMethods,
  type ValueRules,
} from '../../../option-values.js';
import type { FetchHandlerOptions } from '../fetch/fetch-options.js';
import type { HttpMcpServerOptions, HttpsOptions } from './options.js';

/**
 * A literal path, as a request's URL carries it: express 5 reads `: * ? + ( ) [ ] { } ! \` as route syntax
 * (`/:name` answers every path of one segment, `/mcp?` fails at listen), and both endpoints compare the path
 * with the request's percent-encoded one (`/santé` or `/my api` would never match; `/sant%C3%A9` does).
 */
export const ROUTE = valueRule(
  'a path starting with "/" as a URL writes it (percent-encoded, no "." segments), without route-pattern ' +
    'characters (: * ? + ( ) [ ] { } ! \\)',
  (v) => typeof v === 'string' && v.startsWith('/') && !/[:*?+()[\]{}!\\]/.test(v) && asUrlPath(v) === v,
);

/** `path` as a URL's pathname writes it (undefined when it cannot be one). */
function asUrlPath(path: string): string | undefined {
  try {
    return new URL(`http://h${path}`).pathname;
  } catch {
    return undefined;
  }
}

/** Rules of the options both endpoints take. */
export const SHARED_ENDPOINT_RULES: ValueRules<FetchHandlerOptions & HttpMcpServerOptions> = {
  path: ROUTE,
  dnsRebindingProtection: BOOLEAN,
  allowedHosts: STRING_ARRAY,
  allowedOrigins: STRING_ARRAY,
  authenticate: FUNCTION,
  authorization: OBJECT,
  authChallenge: STRING,
  resourceMetadataUrl: STRING,
  maxRequestBodyBytes: countRule(1, 'bytes'),
  keepAliveMs: msRule(true),
  maxListenStreams: countRule(1),
};

/** Rules of every `HttpMcpServer` option the base server does not check. */
export const HTTP_RULES: ValueRules<HttpMcpServerOptions> = {
  ...SHARED_ENDPOINT_RULES,
  host: STRING,
  port: numberRule({ min: 0, max: 65535, integer: true }),
  https: OBJECT,
  stateless: BOOLEAN,
  sessionIdleTimeoutMs: msRule(true),
  maxSessions: countRule(1),
  sessionLimitPolicy: oneOf('evict-lru', 'reject'),
  onSessionEvent: FUNCTION,
  cors: anyOf(BOOLEAN, OBJECT),
  healthPath: anyOf(ROUTE, oneOf(false)),
  readyPath: anyOf(ROUTE, oneOf(false)),
  pingIntervalMs: msRule(true),
  pingTimeoutMs: msRule(false),
  eventStore: withMethods('an event store', ['storeEvent', 'replayEventsAfter']),
  app: valueRule('an express app (express())', (v) => typeof v === 'function' && 'use' in v),
};

const PEM = valueRule(
  'PEM text or bytes (read the file first)',
  (v) => (typeof v === 'string' || v instanceof Uint8Array) && v.length > 0,
);

/** Rules of the `https` option object. */
export const HTTPS_RULES: ValueRules<HttpsOptions> = {
  key: PEM,
  cert: PEM,
  ca: anyOf(
    PEM,
    valueRule('an array of them', (v) => Array.isArray(v) && v.every((c) => PEM.test(c))),
  ),
  passphrase: STRING,
  requestCert: BOOLEAN,
  rejectUnauthorized: BOOLEAN,
};
