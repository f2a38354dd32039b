import { OpenApiError } from '../errors.js';
import { assertKnownOptions, optionKeys } from '../known-options.js';
import { lazyRequire } from '../lazy-module.js';
import type { HttpMethod, OpenApiDocument, OperationObject, ParameterObject } from './spec-types.js';

const picomatch = lazyRequire<typeof import('picomatch')>('picomatch');

const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** What identifies an operation to filters and to a `toolName` function. */
export interface OpenApiOperationInfo {
  /** The operation's `operationId`, when the spec gives one. */
  readonly operationId?: string;
  /** Upper-case HTTP method: `GET`, `POST`, ... */
  readonly method: string;
  /** The path template as written in the spec, e.g. `/pet/{petId}`. */
  readonly path: string;
  /** The operation's tags (empty when it has none). */
  readonly tags: readonly string[];
  /** The operation's `summary`. */
  readonly summary?: string;
}

/**
 * Which operations to pick. An operation matches when it matches ANY listed criterion:
 * one of `tags`, a `paths` glob (picomatch: `/pet/**` matches `/pet` and everything below it,
 * `/store/*` one segment below; `{...}` is literal, so a path template matches itself),
 * one of `operationIds`, or one of `methods` (case-insensitive).
 */
export interface OperationFilter {
  tags?: readonly string[];
  paths?: readonly string[];
  operationIds?: readonly string[];
  methods?: readonly string[];
}

/** One operation of the spec with its effective parameters (path-level ones merged in). */
export interface SpecOperation {
  readonly info: OpenApiOperationInfo;
  readonly operation: OperationObject;
  /** Path-item parameters overridden by operation parameters of the same name and location (OpenAPI 3.x). */
  readonly parameters: readonly ParameterObject[];
}

const FILTER_KEYS = optionKeys<OperationFilter>()(['tags', 'paths', 'operationIds', 'methods']);

/**
 * @throws InvalidOptionsError for a key an `OperationFilter` does not define (a misspelled filter
 *   would otherwise match nothing and expose every operation).
 * @throws OpenApiError for a name in `methods` that is not an HTTP method.
 */
function compileFilter(
  filter: OperationFilter | undefined,
  which: 'include' | 'exclude',
): ((info: OpenApiOperationInfo) => boolean) | undefined {
  if (!filter) return undefined;
  assertKnownOptions(`fromOpenAPI ${which} filter`, filter, FILTER_KEYS);
  for (const method of filter.methods ?? []) {
    if (!METHODS.includes(String(method).toLowerCase() as HttpMethod)) {
      throw new OpenApiError(`${which}.methods: "${method}" is not an HTTP method (one of ${METHODS.join(', ')}).`);
    }
  }
  const tags = new Set(filter.tags ?? []);
  const ids = new Set(filter.operationIds ?? []);
  const methods = new Set((filter.methods ?? []).map((method) => method.toUpperCase()));
  // Braces stay literal, so a path template (`/pet/{petId}`) matches itself.
  const paths = (filter.paths ?? []).map((glob) => picomatch()(glob, { nobrace: true }));
  return (info) =>
    info.tags.some((tag) => tags.has(tag)) ||
    (info.operationId !== undefined && ids.has(info.operationId)) ||
    methods.has(info.method) ||
    paths.some((matches) => matches(info.path));
}

function mergeParameters(shared: readonly ParameterObject[], own: readonly ParameterObject[]): ParameterObject[] {
  const key = (parameter: ParameterObject) => `${parameter.in}:${parameter.name}`;
  const merged = new Map(shared.map((parameter) => [key(parameter), parameter]));
  for (const parameter of own) merged.set(key(parameter), parameter);
  return [...merged.values()];
}

/**
 * Lists the spec's operations in document order, kept when `include` matches (or is absent)
 * and `exclude` does not.
 */
export function selectOperations(
  document: OpenApiDocument,
  include?: OperationFilter,
  exclude?: OperationFilter,
): SpecOperation[] {
  const included = compileFilter(include, 'include');
  const excluded = compileFilter(exclude, 'exclude');
  const selected: SpecOperation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const info: OpenApiOperationInfo = {
        ...(operation.operationId !== undefined && { operationId: operation.operationId }),
        method: method.toUpperCase(),
        path,
        tags: operation.tags ?? [],
        ...(operation.summary !== undefined && { summary: operation.summary }),
      };
      if (included && !included(info)) continue;
      if (excluded?.(info)) continue;
      selected.push({
        info,
        operation,
        parameters: mergeParameters(item.parameters ?? [], operation.parameters ?? []),
      });
    }
  }
  return selected;
}

/** MCP tool names (SEP-986, MCP 2025-11-25 "Tool names"): 1-128 characters of A-Z a-z 0-9 _ - . */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const MAX_NAME = 128;

/**
 * The default tool name: the `operationId`, else `method_path` (`GET /pet/{petId}` ->
 * `get_pet_petId`), with every character outside `A-Za-z0-9_.-` replaced by `_`, runs of `_`
 * collapsed, and cut to 128 characters.
 */
export function defaultToolName(info: OpenApiOperationInfo): string {
  const raw = info.operationId ?? `${info.method.toLowerCase()}_${info.path}`;
  const cleaned = raw
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (cleaned || info.method.toLowerCase()).slice(0, MAX_NAME);
}

/**
 * Names every operation's tool, unique within the package: a default name already taken gets
 * `_2`, `_3`, ... (cut so the whole stays within 128 characters). A name from `toolName` is
 * used as given and must be valid and unique.
 *
 * @throws OpenApiError when `toolName` returns an invalid or repeated name (naming the operation).
 */
export function nameOperations(
  operations: readonly SpecOperation[],
  toolName?: (info: OpenApiOperationInfo) => string,
): string[] {
  const taken = new Set<string>();
  return operations.map(({ info }) => {
    const where = `${info.method} ${info.path}`;
    if (toolName) {
      const name = toolName(info);
      if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
        throw new OpenApiError(
          `toolName gave "${String(name)}" for ${where}: use 1-128 characters from A-Z, a-z, 0-9, "_", "-" and ".".`,
        );
      }
      if (taken.has(name))
        throw new OpenApiError(`toolName gave "${name}" for ${where}, already used by another operation.`);
      taken.add(name);
      return name;
    }
    const base = defaultToolName(info);
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
    taken.add(name);
    return name;
  });
}
