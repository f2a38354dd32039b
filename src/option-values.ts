// Type and range checks of option values, so that a wrong value (`watch: 'false'`, `port: -1`,
// `extensions: 'md'`) fails where it is given with an InvalidOptionsError naming the option, what it
// must be and what it got, instead of a raw TypeError deep inside or a silent misbehaviour.
// Runtime-neutral (no `node:` imports): the fetch entry point uses it too.
import { InvalidOptionsError } from './errors.js';

/** What one option value must be: the words for the message, and the test. */
export interface ValueRule {
  /** What the value must be, completing "must be …" (`a boolean`, `an integer >= 1`). */
  readonly expected: string;
  /** True when `value` is acceptable. */
  test(value: unknown): boolean;
}

/** The rules of an options type's keys; keys left out are not checked here. */
export type ValueRules<T> = { readonly [K in keyof T]?: ValueRule };

/** Longest timer delay `setTimeout` honours (ms); larger values fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A rule from its words and its test. */
export function valueRule(expected: string, test: (value: unknown) => boolean): ValueRule {
  return { expected, test };
}
const rule = valueRule;

/** Any string. */
export const STRING = rule('a string', (v) => typeof v === 'string');
/** A string with at least one character. */
export const NON_EMPTY_STRING = rule('a non-empty string', (v) => typeof v === 'string' && v.length > 0);
/** `true` or `false` (not the strings `'true'` / `'false'`). */
export const BOOLEAN = rule('a boolean (true or false)', (v) => typeof v === 'boolean');
/** A function. */
export const FUNCTION = rule('a function', (v) => typeof v === 'function');
/** A plain object (not `null`, not an array). */
export const OBJECT = rule('an object', isObject);
/** An array whose entries are all strings. */
export const STRING_ARRAY = rule(
  'an array of strings',
  (v) => Array.isArray(v) && v.every((entry) => typeof entry === 'string'),
);

/**
 * A number within bounds: `min` (inclusive; `above` makes it exclusive), `max` (inclusive), whole
 * numbers only with `integer`. `unit` is named in the message (`milliseconds`, `bytes`).
 */
export function numberRule(bounds: {
  min?: number;
  above?: boolean;
  max?: number;
  integer?: boolean;
  unit?: string;
}): ValueRule {
  const { min, above = false, max, integer = false, unit } = bounds;
  const kind = integer ? 'an integer' : 'a number';
  const words = [unit ? `${integer ? 'a whole number' : 'a number'} of ${unit}` : kind];
  if (min !== undefined) words.push(`${above ? '>' : '>='} ${min}`);
  if (max !== undefined) words.push(`${min === undefined ? '' : 'and '}<= ${max}`);
  return rule(
    words.join(' '),
    (v) =>
      typeof v === 'number' &&
      Number.isFinite(v) &&
      (!integer || Number.isInteger(v)) &&
      (min === undefined || (above ? v > min : v >= min)) &&
      (max === undefined || v <= max),
  );
}

/** A timer duration in ms: `>= 0` (or `> 0` without `zero`), at most {@link MAX_TIMER_MS}. */
export function msRule(zero: boolean): ValueRule {
  return numberRule({ min: 0, above: !zero, max: MAX_TIMER_MS, unit: 'milliseconds' });
}

/** A whole number >= `min` (a count or a size). */
export function countRule(min: number, unit?: string): ValueRule {
  return numberRule({ min, integer: true, unit });
}

/** One of the given literal values. */
export function oneOf(...values: readonly (string | number | boolean)[]): ValueRule {
  return rule(`one of ${values.map((v) => JSON.stringify(v)).join(', ')}`, (v) => values.includes(v as never));
}

/** A value passing any of `rules`. */
export function anyOf(...rules: readonly ValueRule[]): ValueRule {
  return rule(rules.map((r) => r.expected).join(' or '), (v) => rules.some((r) => r.test(v)));
}

/** An object with the given methods (a store, a logger, ...), `name` naming what it should be. */
export function withMethods(name: string, methods: readonly string[]): ValueRule {
  return rule(
    `${name} (an object with ${methods.map((m) => `${m}()`).join(', ')})`,
    (v) =>
      typeof v === 'object' &&
      v !== null &&
      methods.every((m) => typeof (v as Record<string, unknown>)[m] === 'function'),
  );
}

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short description of a value for an error message: strings quoted, objects by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' ? 'a function' : typeof value === 'symbol' ? 'a symbol' : String(value);
  }
  if (Array.isArray(value)) return `an array (${value.length} entries)`;
  const name = Object.getPrototypeOf(value)?.constructor?.name;
  return name && name !== 'Object' ? `a ${name}` : 'an object';
}

/**
 * The error for a refused value. `subject` names whose option it is (`HttpMcpServer option`,
 * `registerFolder option`); the message reads `<subject> <option> must be <expected>, got <value>.`
 */
export function invalidOptionValue(
  subject: string,
  option: string,
  expected: string,
  value: unknown,
  hint = '',
): InvalidOptionsError {
  const received = describeValue(value);
  return new InvalidOptionsError(
    subject,
    [],
    `${subject} ${option} must be ${expected}, got ${received}.${hint ? ` ${hint}` : ''}`,
    {
      option,
      expected,
      received,
    },
  );
}

/**
 * `value` when `rule` accepts it (or it is `undefined`); `subject` as for {@link invalidOptionValue}.
 * @throws InvalidOptionsError naming `subject`, `option`, what it must be and `value` otherwise.
 */
export function checkValue<V>(subject: string, option: string, value: V, check: ValueRule): V {
  if (value !== undefined && !check.test(value)) throw invalidOptionValue(subject, option, check.expected, value);
  return value;
}

/**
 * Checks a required argument (`undefined` is refused too) against `check`; returns it.
 * @throws InvalidOptionsError naming `subject`, the argument, what it must be and what it got.
 */
export function checkArgument<V>(subject: string, argument: string, value: V, check: ValueRule): V {
  if (!check.test(value)) throw invalidOptionValue(subject, argument, check.expected, value);
  return value;
}

/**
 * Checks each given (not `undefined`) value of `options` against its rule; `prefix` names a nested
 * object (`https.`). Keys without a rule are left to the caller.
 * @throws InvalidOptionsError for the first value its rule refuses.
 */
export function checkOptionValues<T extends object>(
  subject: string,
  options: T,
  rules: ValueRules<T>,
  prefix = '',
): void {
  for (const [key, check] of Object.entries(rules) as [string, ValueRule][]) {
    checkValue(subject, `${prefix}${key}`, (options as Record<string, unknown>)[key], check);
  }
}

/**
 * Refuses an options argument that is not an object (or `undefined`): `null`, a string, an array.
 * @param what - the argument's words in the message (`options`, `the https option`).
 * @throws InvalidOptionsError naming `owner` and the value received.
 */
export function checkOptionsObject(owner: string, options: unknown, what = 'options'): void {
  if (options === undefined || isObject(options)) return;
  const received = describeValue(options);
  throw new InvalidOptionsError(
    `${owner} option`,
    [],
    `${owner} ${what} must be an object (or left out), got ${received}.`,
    { option: what, expected: 'an object', received },
  );
}
