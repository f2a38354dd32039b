import { fromJsonSchema, type StandardSchemaV1, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { InvalidToolError } from '../errors.js';
import { standardToJsonSchema } from './standard-json-schema.js';

/** A plain JSON Schema object (draft 2020-12), as MCP puts it in `inputSchema`. */
export type JsonSchemaObject = { type?: string; [key: string]: unknown };

/**
 * What a tool may give as `inputSchema` / `outputSchema`: any Standard Schema (zod 4 and ArkType
 * carry their JSON Schema form; a Valibot schema is converted with `@valibot/to-json-schema`), or a
 * plain JSON Schema object (validated with the SDK's AJV-backed validator).
 */
export type ToolSchema = StandardSchemaWithJSON | StandardSchemaV1 | JsonSchemaObject;

/** The outcome of {@link CompiledSchema.validate}: the parsed value or human-readable issues. */
export type SchemaCheck = { ok: true; value: unknown } | { ok: false; issues: string[] };

/** A schema compiled once at registration: its wire JSON form and a validator. */
export interface CompiledSchema {
  /** The JSON Schema sent in `tools/list` (always an object schema). */
  readonly json: Record<string, unknown>;
  /**
   * Validates a value. Synchronous when the schema's validator is (zod, AJV), so a call
   * path need not wait a microtask for it; a Promise when the validator is asynchronous.
   */
  validate(value: unknown): SchemaCheck | Promise<SchemaCheck>;
}

/**
 * What a tool without arguments lists: closed, so that strict function-calling clients (OpenAI's strict
 * mode requires `additionalProperties: false` on every object) take it as it is. Calls stay lenient:
 * arguments sent anyway are ignored, not refused.
 */
const EMPTY_OBJECT_SCHEMA: Record<string, unknown> = Object.freeze({
  type: 'object',
  properties: Object.freeze({}),
  additionalProperties: false,
});

/** ArkType types are functions with a `~standard` property; zod and Valibot schemas are objects. */
function isStandardSchema(schema: ToolSchema): schema is StandardSchemaV1 {
  return (typeof schema === 'object' || typeof schema === 'function') && schema !== null && '~standard' in schema;
}

/**
 * Renders a Standard Schema issue as `field.path: message` so the caller knows which field is wrong.
 * The SDK's JSON Schema (AJV) validator reports every error in one issue (`data/a must be number,
 * data must have required property 'b'`): each becomes its own line.
 */
function formatIssue(issue: { message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }): string[] {
  const path = (issue.path ?? []).map((segment) =>
    typeof segment === 'object' && segment !== null ? String(segment.key) : String(segment),
  );
  if (path.length > 0) return [`${path.join('.')}: ${issue.message}`];
  return issue.message.split(/, (?=data[/ ])/).map((part) => fromAjvMessage(part) ?? part);
}

/** AJV (plain JSON Schema) says `data/a must be number`; render it as `a: must be number` like zod issues. */
function fromAjvMessage(message: string): string | undefined {
  const match = /^data((?:\/\S*)?) (.*)$/.exec(message);
  if (!match) return undefined;
  const pointer = (match[1] ?? '').split('/').filter(Boolean).join('.');
  const required = /^must have required property '(.+)'$/.exec(match[2] ?? '');
  if (required) return `${pointer ? `${pointer}.` : ''}${required[1]}: is required`;
  return pointer ? `${pointer}: ${match[2]}` : match[2];
}

type StandardSchemaV1Result = Awaited<ReturnType<StandardSchemaV1['~standard']['validate']>>;

/**
 * Compiles a tool schema once, so listing and calling never convert again.
 *
 * @param schema - the schema as given by the tool (`undefined` means "no arguments").
 * @param label - used in error messages, e.g. `tool "search" inputSchema`.
 * @throws InvalidToolError when the schema cannot be converted to an object JSON Schema.
 */
export function compileSchema(schema: ToolSchema | undefined, label: string): CompiledSchema {
  if (schema === undefined) {
    return { json: EMPTY_OBJECT_SCHEMA, validate: (value) => ({ ok: true, value: value ?? {} }) };
  }
  let standard: StandardSchemaV1;
  let json: Record<string, unknown>;
  if (isStandardSchema(schema)) {
    standard = schema;
    json = standardToJsonSchema(schema, label);
  } else {
    try {
      standard = fromJsonSchema(schema as never);
    } catch (error) {
      throw new InvalidToolError(`${label} is not a usable JSON Schema: ${(error as Error).message}`);
    }
    json = schema as Record<string, unknown>;
  }
  if (json.type !== 'object') {
    throw new InvalidToolError(
      `${label} must describe an object (JSON Schema "type": "object"), got ${String(json.type)}.`,
    );
  }
  // A converted schema has lost the `$schema` its converter adds; a plain JSON Schema is sent
  // verbatim, keywords and all (`$schema`, `$defs`, `additionalProperties`: SEP-1613).
  return {
    json: Object.freeze(json),
    validate(value) {
      const result = standard['~standard'].validate(value ?? {});
      return result instanceof Promise ? result.then(toCheck) : toCheck(result);
    },
  };
}

function toCheck(result: StandardSchemaV1Result): SchemaCheck {
  if (result.issues) return { ok: false, issues: result.issues.flatMap(formatIssue) };
  return { ok: true, value: result.value };
}
