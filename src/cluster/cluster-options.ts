// Checks createCluster()'s options (keys, types, ranges) before any connection is opened.
import { assertKnownOptions, optionKeys } from '../known-options.js';
import {
  anyOf,
  checkOptionsObject,
  checkOptionValues,
  invalidOptionValue,
  msRule,
  NON_EMPTY_STRING,
  OBJECT,
  oneOf,
  STRING,
  valueRule,
  withMethods,
  type ValueRules,
} from '../option-values.js';
import type { ClusterOptions } from './create-cluster.js';

const KEYS = optionKeys<ClusterOptions>()([
  'redis',
  'prefix',
  'replicaId',
  'onUnavailable',
  'connectTimeoutMs',
  'requestStateKey',
  'heartbeatMs',
  'logger',
]);

const RULES: ValueRules<ClusterOptions> = {
  redis: anyOf(
    valueRule('a Redis URL', (v) => typeof v === 'string' && v.length > 0),
    OBJECT,
  ),
  prefix: NON_EMPTY_STRING,
  replicaId: NON_EMPTY_STRING,
  onUnavailable: oneOf('fail', 'local'),
  connectTimeoutMs: msRule(false),
  requestStateKey: anyOf(
    STRING,
    valueRule('a Uint8Array', (v) => v instanceof Uint8Array),
  ),
  heartbeatMs: msRule(false),
  logger: withMethods('a logger', ['debug', 'info', 'warn', 'error', 'child']),
};

/**
 * Checks `createCluster(options)`.
 * @throws InvalidOptionsError for options that are not an object, a missing `redis`, an unknown key, or a
 *   value of the wrong type or range.
 */
export function checkClusterOptions(options: ClusterOptions): void {
  checkOptionsObject('createCluster()', options);
  if (options?.redis === undefined) {
    throw invalidOptionValue('createCluster() option', 'redis', RULES.redis!.expected, undefined);
  }
  assertKnownOptions('createCluster() option', options, KEYS);
  checkOptionValues('createCluster() option', options, RULES);
}
