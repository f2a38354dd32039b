import type { StandardSchemaV1, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { InvalidToolError } from '../errors.js';
import { lazyRequire } from '../lazy-module.js';

type ValibotToJson = typeof import('@valibot/to-json-schema');

/** Optional peer: loaded on the first Valibot schema only (it has a CommonJS build, so the call stays synchronous). */
const valibotToJson = lazyRequire<ValibotToJson>('@valibot/to-json-schema');

function hasJsonForm(schema: StandardSchemaV1): schema is StandardSchemaWithJSON {
  return typeof (schema['~standard'] as { jsonSchema?: { input?: unknown } }).jsonSchema?.input === 'function';
}

function fromValibot(schema: StandardSchemaV1, label: string): Record<string, unknown> {
  let convert: ValibotToJson['toJsonSchema'];
  try {
    convert = valibotToJson().toJsonSchema;
  } catch {
    throw new InvalidToolError(
      `${label} is a Valibot schema: install @valibot/to-json-schema (npm install @valibot/to-json-schema) ` +
        'so it can be listed as JSON Schema.',
    );
  }
  return convert(schema as never, { target: 'draft-2020-12' }) as Record<string, unknown>;
}

/**
 * The JSON Schema (draft 2020-12, without `$schema`) of a Standard Schema, for `tools/list`,
 * prompt arguments and elicitation. Schemas that implement Standard JSON Schema
 * (`~standard.jsonSchema`: zod 4, ArkType) convert themselves; Valibot schemas (vendor `valibot`)
 * go through the optional peer `@valibot/to-json-schema`, so they need no wrapper.
 *
 * @param label - names the schema in errors, e.g. `Tool "search" inputSchema`.
 * @throws InvalidToolError when the schema has no JSON Schema form, its converter is not
 *   installed, or the conversion fails (e.g. a transform or a type JSON Schema cannot express).
 */
export function standardToJsonSchema(schema: StandardSchemaV1, label: string): Record<string, unknown> {
  const { vendor } = schema['~standard'];
  let json: Record<string, unknown>;
  try {
    if (hasJsonForm(schema)) json = schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' });
    else if (vendor === 'valibot') json = fromValibot(schema, label);
    else {
      throw new InvalidToolError(
        `${label} is a Standard Schema from "${vendor}" without a JSON Schema form (~standard.jsonSchema): ` +
          'use a library that implements Standard JSON Schema (zod 4, ArkType, Valibot) or pass a plain JSON Schema.',
      );
    }
  } catch (error) {
    if (error instanceof InvalidToolError) throw error;
    throw new InvalidToolError(`${label} cannot be converted to JSON Schema: ${(error as Error).message}`);
  }
  const { $schema: _drop, ...rest } = json;
  return rest;
}
