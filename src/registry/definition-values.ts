// Type checks of the plain-object specs of defineTool / definePrompt, so that `execute: 'x'`,
// `annotations: 'readonly'` or a spec that is not an object is refused by name when it is defined,
// not with a TypeError when a client first lists or calls it.
import { assertKnownOptions } from '../known-options.js';
import {
  checkOptionValues,
  FUNCTION,
  invalidOptionValue,
  isObject,
  OBJECT,
  STRING,
  valueRule,
  type ValueRules,
} from '../option-values.js';

/** An `icons` list. */
export const ICONS = valueRule(
  'an array of icons ({ src, mimeType?, sizes? })',
  (v) => Array.isArray(v) && v.every((icon) => isObject(icon) && typeof icon.src === 'string'),
);
/** A schema field. */
export const SCHEMA = valueRule(
  'a schema (zod, another Standard Schema or a JSON Schema object)',
  (v) => isObject(v) || (typeof v === 'function' && '~standard' in v),
);

/** Rules of a tool spec's fields whose type the Tool constructor does not check itself. */
export const TOOL_SPEC_RULES = {
  title: STRING,
  description: STRING,
  inputSchema: SCHEMA,
  outputSchema: SCHEMA,
  annotations: OBJECT,
  icons: ICONS,
  _meta: OBJECT,
  canAccess: FUNCTION,
  execute: FUNCTION,
} as const;

/**
 * Refuses a spec that is not an object, an unknown key, or a field of the wrong type.
 * @param what - the function, as messages name it (`defineTool`).
 * @throws InvalidOptionsError naming the item, the field, what it must be and what it got.
 */
export function checkSpec(what: string, spec: unknown, keys: ReadonlySet<string>, rules: ValueRules<object>): void {
  if (!isObject(spec)) throw invalidOptionValue(what, 'argument', 'a spec object { name, ... }', spec);
  const subject = `${what} option (${what === 'defineTool' ? 'tool' : 'prompt'} "${String(spec.name)}")`;
  assertKnownOptions(subject, spec, keys);
  checkOptionValues(subject, spec, rules);
}
