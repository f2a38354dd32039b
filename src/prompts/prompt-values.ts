// Type checks of definePrompt's spec (see registry/definition-values.ts for the tool side).
import { optionKeys } from '../known-options.js';
import { anyOf, FUNCTION, OBJECT, STRING, valueRule, type ValueRules } from '../option-values.js';
import { checkSpec, ICONS, SCHEMA } from '../registry/definition-values.js';
import type { PromptSpec } from './prompt.js';

const PROMPT_SPEC_KEYS = optionKeys<PromptSpec<unknown>>()([
  'name',
  'title',
  'description',
  'arguments',
  'icons',
  '_meta',
  'canAccess',
  'requiredScopes',
  'load',
]);

const PROMPT_SPEC_RULES: ValueRules<PromptSpec<unknown>> = {
  title: STRING,
  description: STRING,
  arguments: anyOf(valueRule('an array of arguments', Array.isArray), SCHEMA),
  icons: ICONS,
  _meta: OBJECT,
  canAccess: FUNCTION,
};

/** Checks `definePrompt(spec)` (see {@link checkSpec}). */
export function checkPromptSpec(spec: unknown): void {
  checkSpec('definePrompt', spec, PROMPT_SPEC_KEYS, PROMPT_SPEC_RULES as ValueRules<object>);
}
