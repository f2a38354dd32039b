// Checks the options of the built-in middleware factories (keys, types, ranges), so that a wrong
// value fails when the middleware is made, with an InvalidOptionsError naming the option.
import { assertKnownOptions, optionKeys } from '../known-options.js';
import {
  anyOf,
  BOOLEAN,
  checkOptionsObject,
  checkOptionValues,
  countRule,
  FUNCTION,
  isObject,
  invalidOptionValue,
  msRule,
  numberRule,
  OBJECT,
  oneOf,
  STRING,
  STRING_ARRAY,
  withMethods,
  type ValueRules,
} from '../option-values.js';
import type { AuditLogOptions } from './audit-log.js';
import type { OpenTelemetryOptions } from './open-telemetry.js';
import type { RateLimitBudget, RateLimitOptions } from './rate-limit.js';
import type { ResponseCacheOptions } from './response-cache.js';

const BUDGET_RULES: ValueRules<RateLimitBudget> = {
  points: countRule(1),
  durationMs: numberRule({ min: 1000, max: 2 ** 31 - 1, unit: 'milliseconds' }),
};

const RATE_LIMIT_KEYS = optionKeys<RateLimitOptions>()([
  'points',
  'durationMs',
  'by',
  'perTool',
  'tools',
  'store',
  'keyPrefix',
]);

const RATE_LIMIT_RULES: ValueRules<RateLimitOptions> = {
  ...BUDGET_RULES,
  by: anyOf(oneOf('principal', 'session', 'ip'), FUNCTION),
  perTool: BOOLEAN,
  tools: OBJECT,
  store: anyOf(oneOf('auto', 'memory'), withMethods('a node-redis client', ['sendCommand'])),
  keyPrefix: STRING,
};

/** The factory's options (an object), after its own checks. */
function checked<T extends object>(
  owner: string,
  options: T | undefined,
  keys: ReadonlySet<string>,
  rules: ValueRules<T>,
): T {
  checkOptionsObject(owner, options);
  const given = options ?? ({} as T);
  assertKnownOptions(`${owner} option`, given, keys);
  checkOptionValues(`${owner} option`, given, rules);
  return given;
}

/**
 * Checks `rateLimit(options)`: the budget (`points` a positive integer, `durationMs` >= 1000), the other
 * options and each per-tool budget.
 * @throws InvalidOptionsError for a missing or wrong value or an unknown key, naming the option.
 */
export function checkRateLimitOptions(options: RateLimitOptions): void {
  checked('rateLimit()', options, RATE_LIMIT_KEYS, RATE_LIMIT_RULES);
  for (const field of ['points', 'durationMs'] as const) {
    if (options[field] === undefined)
      throw invalidOptionValue('rateLimit() option', field, BUDGET_RULES[field]!.expected, undefined);
  }
  for (const [name, budget] of Object.entries(options.tools ?? {})) {
    const where = `rateLimit() option tools.${name}`;
    if (!isObject(budget))
      throw invalidOptionValue('rateLimit() option', `tools.${name}`, 'a budget { points, durationMs }', budget);
    assertKnownOptions(where, budget, BUDGET_KEYS);
    for (const field of ['points', 'durationMs'] as const) {
      if (budget[field] === undefined) throw invalidOptionValue(where, field, BUDGET_RULES[field]!.expected, undefined);
    }
    checkOptionValues(where, budget, BUDGET_RULES);
  }
}

const BUDGET_KEYS = optionKeys<RateLimitBudget>()(['points', 'durationMs']);

const CACHE_KEYS = optionKeys<ResponseCacheOptions>()(['ttlMs', 'maxEntries', 'methods']);
const CACHE_RULES: ValueRules<ResponseCacheOptions> = {
  ttlMs: msRule(false),
  maxEntries: countRule(1),
  methods: STRING_ARRAY,
};

/**
 * Checks `responseCache(options)`.
 * @throws InvalidOptionsError for a `ttlMs` or `maxEntries` that is not positive, another wrong value or an unknown key.
 */
export function checkResponseCacheOptions(options: ResponseCacheOptions | undefined): void {
  checked('responseCache()', options, CACHE_KEYS, CACHE_RULES);
}

const AUDIT_KEYS = optionKeys<AuditLogOptions>()(['onEntry', 'logger']);
const AUDIT_RULES: ValueRules<AuditLogOptions> = {
  onEntry: FUNCTION,
  logger: withMethods('a logger', ['info']),
};

/** Checks `auditLog(options)`. @throws InvalidOptionsError for a wrong value or an unknown key. */
export function checkAuditLogOptions(options: AuditLogOptions | undefined): void {
  checked('auditLog()', options, AUDIT_KEYS, AUDIT_RULES);
}

const OTEL_KEYS = optionKeys<OpenTelemetryOptions>()(['tracerProvider', 'meterProvider', 'propagator', 'scopeName']);
const OTEL_RULES: ValueRules<OpenTelemetryOptions> = {
  tracerProvider: withMethods('a TracerProvider', ['getTracer']),
  meterProvider: withMethods('a MeterProvider', ['getMeter']),
  propagator: withMethods('a TextMapPropagator', ['inject', 'extract']),
  scopeName: STRING,
};

/** Checks `openTelemetry(options)`. @throws InvalidOptionsError for a wrong value or an unknown key. */
export function checkOpenTelemetryOptions(options: OpenTelemetryOptions | undefined): void {
  checked('openTelemetry()', options, OTEL_KEYS, OTEL_RULES);
}
