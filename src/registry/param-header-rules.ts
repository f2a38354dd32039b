/**
 * The rules a tool's `x-mcp-header` annotations must follow (MCP 2026-07-28, Streamable HTTP
 * transport, "Custom Headers from Tool Parameters" > "Schema Extension", SEP-2243). A client
 * mirrors an annotated argument into an `Mcp-Param-<name>` header; it MUST exclude a tool whose
 * annotations break these rules (the v2 SDK client drops it from `tools/list` with a console
 * warning), so the toolkit refuses such a tool when it is registered:
 *
 * - the value is a non-empty string;
 * - it is an RFC 9110 token (section 5.6.2 `tchar`): no spaces, control characters (CR/LF) or
 *   delimiters, since it becomes part of a header name;
 * - names are unique within the tool ignoring case (header names are case-insensitive);
 * - the annotated property has `type` `string`, `integer` or `boolean` (`number` is excluded
 *   by the spec; objects, arrays and untyped properties have no single header value);
 * - the property is reachable from the root through `properties` alone: not the root itself, not
 *   under `items`, `additionalProperties`, `oneOf`/`anyOf`/`allOf`/`not`, `if`/`then`/`else`,
 *   `$defs`, ... (an annotation anywhere else makes the tool definition invalid).
 */

/** One valid annotation: the property's path through `properties`, and the header name suffix. */
export interface ParamHeaderDeclaration {
  readonly path: readonly string[];
  readonly header: string;
}

/** What {@link scanParamHeaders} found: the valid declarations, and the first broken rule if any. */
export interface ParamHeaderScan {
  readonly declarations: readonly ParamHeaderDeclaration[];
  /** `property "a.b": <rule>`, naming the property and the rule; absent when every annotation is valid. */
  readonly problem?: string;
}

const KEY = 'x-mcp-header';
/** RFC 9110 section 5.6.2: `token = 1*tchar`. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);
/** Keywords whose subschemas are off the `properties`-only chain. */
const OFF_CHAIN = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
] as const;
/** Of those, the ones whose value maps names to subschemas. */
const NAMED_SUBSCHEMAS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The property as people write it: `property "a.b"`, with `<items>`-style steps for off-chain keywords. */
function propertyLabel(path: readonly string[]): string {
  return path.length === 0 ? 'the root schema' : `property "${path.join('.')}"`;
}

/**
 * Finds every `x-mcp-header` annotation of a tool's JSON input schema and checks the rules above.
 * Pure; never throws.
 */
export function scanParamHeaders(inputSchema: unknown): ParamHeaderScan {
  const declarations: ParamHeaderDeclaration[] = [];
  const seen = new Map<string, string>();
  let problem: string | undefined;
  const fail = (path: readonly string[], rule: string) => (problem ??= `${propertyLabel(path)}: ${rule}`);

  const visit = (schema: Record<string, unknown>, path: string[], onChain: boolean): void => {
    if (KEY in schema) check(schema, path, onChain);
    if (isObject(schema.properties)) {
      for (const [key, child] of Object.entries(schema.properties)) {
        if (isObject(child)) visit(child, [...path, key], onChain);
      }
    }
    for (const keyword of OFF_CHAIN) {
      const sub = schema[keyword];
      const branches = Array.isArray(sub)
        ? sub
        : NAMED_SUBSCHEMAS.has(keyword) && isObject(sub)
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) if (isObject(branch)) visit(branch, [...path, `<${keyword}>`], false);
    }
  };

  const check = (schema: Record<string, unknown>, path: string[], onChain: boolean): void => {
    const name = schema[KEY];
    if (!onChain || path.length === 0) {
      fail(
        path,
        `x-mcp-header is allowed only on a property reached through "properties" alone (not the root, not inside arrays, additionalProperties, oneOf/anyOf/allOf, if/then/else or $defs)`,
      );
      return;
    }
    if (typeof name !== 'string' || name === '') {
      fail(path, `x-mcp-header must be a non-empty string, got ${JSON.stringify(name)}`);
      return;
    }
    if (!TOKEN.test(name)) {
      fail(
        path,
        `x-mcp-header ${JSON.stringify(name)} is not an HTTP token (RFC 9110 section 5.6.2): use letters, digits and !#$%&'*+-.^_\`|~, no spaces, CR/LF or other delimiters`,
      );
      return;
    }
    const type = schema.type;
    if (typeof type !== 'string' || !HEADER_TYPES.has(type)) {
      fail(
        path,
        `x-mcp-header ${JSON.stringify(name)} is on a property of type ${JSON.stringify(type ?? null)}; only string, integer and boolean properties may carry one`,
      );
      return;
    }
    const prior = seen.get(name.toLowerCase());
    if (prior !== undefined) {
      fail(
        path,
        `x-mcp-header ${JSON.stringify(name)} repeats ${JSON.stringify(prior)}; header names must be unique ignoring case`,
      );
      return;
    }
    seen.set(name.toLowerCase(), name);
    declarations.push({ path, header: name });
  };

  if (isObject(inputSchema)) visit(inputSchema, [], true);
  return problem === undefined ? { declarations } : { declarations, problem };
}
