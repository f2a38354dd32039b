import type { SchemaNode } from './spec-types.js';

/** Keywords of OpenAPI 3.0 Schema Objects that mean nothing to a JSON Schema validator or a model. */
const DROPPED = new Set(['nullable', 'example', 'xml', 'discriminator', 'externalDocs']);
/** Keywords whose value is one subschema. */
const ONE = new Set(['items', 'not', 'additionalProperties', 'contains', 'propertyNames', 'if', 'then', 'else']);
/** Keywords whose value is a list of subschemas. */
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
/** Keywords whose value maps names to subschemas. */
const MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/** Options of {@link toJsonSchema}. */
export interface ConvertOptions {
  /**
   * `request` leaves out `readOnly` properties (the server sets them); `response` leaves out
   * `writeOnly` ones (OpenAPI 3.x "Schema Object": readOnly / writeOnly).
   */
  direction: 'request' | 'response';
  /** Where recursive schemas go; share one per tool schema and put {@link RecursiveDefs.defs} at its root. */
  recursive: RecursiveDefs;
}

/**
 * The schemas that refer to themselves (a tree of categories), collected while converting one
 * tool schema: each becomes an entry of the root's `$defs` and every repeat a `$ref` to it.
 */
export class RecursiveDefs {
  readonly #names = new Map<object, string>();
  readonly #defs: Record<string, SchemaNode> = {};

  /** The `$ref` standing for a schema met again inside itself. */
  refTo(node: object, options: ConvertOptions): SchemaNode {
    let name = this.#names.get(node);
    if (name === undefined) {
      const title = (node as { title?: unknown }).title;
      const base = typeof title === 'string' && /^[A-Za-z0-9_.-]+$/.test(title) ? title : 'Recursive';
      name = base;
      for (let n = 2; Object.hasOwn(this.#defs, name); n += 1) name = `${base}${n}`;
      this.#names.set(node, name);
      this.#defs[name] = {}; // reserved first: the conversion below meets the node again
      this.#defs[name] = convert(node, options, new Set());
    }
    return { $ref: `#/$defs/${name}` };
  }

  /** The collected definitions (empty when nothing recursed). */
  get defs(): Record<string, SchemaNode> {
    return this.#defs;
  }
}

/**
 * Turns a dereferenced OpenAPI schema (3.0 Schema Object or 3.1 JSON Schema) into a plain JSON
 * Schema draft 2020-12 that the SDK's AJV validator and clients accept: `nullable: true` becomes
 * a `"null"` type (and a `null` enum member), `example` becomes `examples`, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` (3.0) become numbers, OpenAPI-only keywords (`xml`,
 * `discriminator`, `externalDocs`) and `x-` extensions go. A schema that contains itself (a tree of
 * categories) becomes a `$ref` into `$defs` (collected in `options.recursive`) where it repeats.
 */
export function toJsonSchema(schema: SchemaNode, options: ConvertOptions): SchemaNode {
  return convert(schema, options, new Set());
}

/** `path` holds the schemas being converted above this one: meeting one of them again is a cycle. */
function convert(node: unknown, options: ConvertOptions, path: Set<object>): SchemaNode {
  if (typeof node !== 'object' || node === null) return node as SchemaNode;
  if (path.has(node)) return options.recursive.refTo(node, options);
  path.add(node);
  const source = node as SchemaNode;
  const out: SchemaNode = {};
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    if (ONE.has(key) && typeof value === 'object' && value !== null) out[key] = convert(value, options, path);
    else if (LIST.has(key) && Array.isArray(value)) out[key] = value.map((item) => convert(item, options, path));
    else if (MAP.has(key) && typeof value === 'object' && value !== null) {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>)
          .filter(([, child]) => key !== 'properties' || !hiddenIn(child, options))
          .map(([name, child]) => [name, convert(child, options, path)]),
      );
    } else out[key] = value;
  }
  path.delete(node);
  if (source.example !== undefined && out.examples === undefined) out.examples = [source.example];
  fixExclusiveBound(out, 'exclusiveMinimum', 'minimum');
  fixExclusiveBound(out, 'exclusiveMaximum', 'maximum');
  if (source.nullable === true) allowNull(out);
  if (Array.isArray(out.required) && out.properties) {
    const kept = out.properties as Record<string, unknown>;
    out.required = (out.required as string[]).filter((name) => name in kept);
  }
  return out;
}

function hiddenIn(property: unknown, options: ConvertOptions): boolean {
  if (typeof property !== 'object' || property === null) return false;
  const flags = property as { readOnly?: unknown; writeOnly?: unknown };
  return options.direction === 'request' ? flags.readOnly === true : flags.writeOnly === true;
}

/** OpenAPI 3.0 (JSON Schema draft 4) writes `minimum: 5, exclusiveMinimum: true`; 2020-12 writes `exclusiveMinimum: 5`. */
function fixExclusiveBound(schema: SchemaNode, exclusive: string, bound: string): void {
  if (typeof schema[exclusive] !== 'boolean') return;
  if (schema[exclusive] === true && typeof schema[bound] === 'number') {
    schema[exclusive] = schema[bound];
    delete schema[bound];
  } else delete schema[exclusive];
}

function allowNull(schema: SchemaNode): void {
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  else if (Array.isArray(schema.type) && !schema.type.includes('null')) schema.type = [...schema.type, 'null'];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}
