import type { PromptArgument, StandardSchemaV1 } from '@modelcontextprotocol/server';
import { completeFromList, type CompleteFunction } from '../completions/completion.js';
import { InvalidPromptError, InvalidToolError } from '../errors.js';
import { compileSchema } from '../registry/schema.js';

/**
 * One prompt argument (MCP `PromptArgument`, plus completion). Argument values are strings on
 * the wire. `enum` both restricts the accepted values and drives completion; `complete`
 * computes suggestions (it wins over `enum` for completion).
 */
export interface PromptArgumentSpec {
  /** Argument name, unique within the prompt. */
  name: string;
  /** Human-readable display name. */
  title?: string;
  /** What the argument is for. */
  description?: string;
  /** When true, `prompts/get` without it fails with -32602 naming the argument. */
  required?: boolean;
  /** The accepted values; completion suggests those starting with the typed text (case-insensitive). */
  enum?: readonly string[];
  /** Suggests values for `completion/complete` (see `CompleteFunction`). */
  complete?: CompleteFunction;
}

/**
 * A prompt's arguments: a list of {@link PromptArgumentSpec}, or a zod 4 object schema (any
 * Standard Schema with JSON Schema) whose properties are the arguments. With a schema, property
 * descriptions and `required` come from its JSON Schema, a property's `enum` drives completion,
 * and properties wrapped in the SDK's `completable(schema, fn)` complete through `fn`.
 */
export type PromptArgumentsInput = readonly PromptArgumentSpec[] | StandardSchemaV1;

/** Outcome of validating `prompts/get` arguments. */
export type ArgumentCheck = { ok: true; value: unknown } | { ok: false; message: string };

/** A prompt's arguments compiled once: the `prompts/list` entries, a validator and the completers. */
export interface CompiledPromptArguments {
  readonly listed: readonly PromptArgument[];
  validate(raw: Readonly<Record<string, string>> | undefined): Promise<ArgumentCheck>;
  completer(argument: string): CompleteFunction | undefined;
}

const COMPLETABLE = Symbol.for('mcp.completable');

/**
 * Compiles a prompt's arguments.
 * @throws InvalidPromptError for a repeated or empty name, an empty `enum`, or a schema that is not an object schema.
 */
export function compilePromptArguments(
  input: PromptArgumentsInput | undefined,
  prompt: string,
): CompiledPromptArguments {
  if (input === undefined) return compileList([], prompt);
  if (Array.isArray(input)) return compileList(input as readonly PromptArgumentSpec[], prompt);
  return compileObjectSchema(input as StandardSchemaV1, prompt);
}

function compileList(specs: readonly PromptArgumentSpec[], prompt: string): CompiledPromptArguments {
  const byName = new Map<string, PromptArgumentSpec>();
  for (const spec of specs) {
    if (!spec || typeof spec.name !== 'string' || spec.name === '') {
      throw new InvalidPromptError(`Prompt "${prompt}" has an argument without a name.`);
    }
    if (byName.has(spec.name))
      throw new InvalidPromptError(`Prompt "${prompt}" declares argument "${spec.name}" twice.`);
    if (spec.enum !== undefined && (!Array.isArray(spec.enum) || spec.enum.length === 0)) {
      throw new InvalidPromptError(`Argument "${spec.name}" of prompt "${prompt}" has an empty enum.`);
    }
    byName.set(spec.name, spec);
  }
  const listed = specs.map(({ name, title, description, required }) =>
    Object.freeze({
      name,
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      required: required === true,
    }),
  );
  return {
    listed: Object.freeze(listed),
    async validate(raw) {
      const args = raw ?? {};
      for (const spec of specs) {
        const value = args[spec.name];
        if (value === undefined) {
          if (spec.required) return { ok: false, message: `missing required argument "${spec.name}"` };
        } else if (spec.enum !== undefined && !spec.enum.includes(value)) {
          return { ok: false, message: `argument "${spec.name}" must be one of: ${spec.enum.join(', ')}` };
        }
      }
      return { ok: true, value: { ...args } };
    },
    completer(argument) {
      const spec = byName.get(argument);
      if (spec?.complete) return spec.complete;
      return spec?.enum ? completeFromList(spec.enum) : undefined;
    },
  };
}

interface JsonProperty {
  title?: string;
  description?: string;
  enum?: unknown[];
}

function compileObjectSchema(schema: StandardSchemaV1, prompt: string): CompiledPromptArguments {
  let compiled: ReturnType<typeof compileSchema>;
  try {
    compiled = compileSchema(schema, `Prompt "${prompt}" arguments schema`);
  } catch (error) {
    if (error instanceof InvalidToolError) throw new InvalidPromptError(error.message);
    throw error;
  }
  const properties = (compiled.json.properties ?? {}) as Record<string, JsonProperty>;
  const required = new Set((compiled.json.required ?? []) as string[]);
  const listed = Object.entries(properties).map(([name, property]) =>
    Object.freeze({
      name,
      ...(property.title !== undefined && { title: property.title }),
      ...(property.description !== undefined && { description: property.description }),
      required: required.has(name),
    }),
  );
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  return {
    listed: Object.freeze(listed),
    async validate(raw) {
      const result = await compiled.validate(raw ?? {});
      return result.ok ? result : { ok: false, message: result.issues.join('; ') };
    },
    completer(argument) {
      if (!Object.hasOwn(properties, argument)) return undefined;
      const fromSchema = completableOf(shape[argument]);
      if (fromSchema) return fromSchema;
      const values = properties[argument]?.enum?.filter((value): value is string => typeof value === 'string');
      return values && values.length > 0 ? completeFromList(values) : undefined;
    },
  };
}

/** The completer attached by the SDK's `completable()`, looking through `.optional()` wrappers. */
function completableOf(field: unknown): CompleteFunction | undefined {
  let current = field as { [COMPLETABLE]?: { complete?: CompleteFunction }; unwrap?: () => unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth += 1) {
    const complete = current[COMPLETABLE]?.complete;
    if (typeof complete === 'function') return complete;
    current = typeof current.unwrap === 'function' ? (current.unwrap() as typeof current) : undefined;
  }
  return undefined;
}
