import { OpenApiError } from '../errors.js';
import { assertKnownOptions, optionKeys } from '../known-options.js';
import { ToolPackage } from '../registry/tool-package.js';
import { planAuth, type OpenApiCredential } from './auth.js';
import { buildInputPlan } from './input-schema.js';
import { loadSpec, resolveServerUrl, type OpenApiSource } from './load-spec.js';
import { OpenApiOperationTool, type OpenApiHeaders } from './openapi-tool.js';
import { nameOperations, selectOperations, type OpenApiOperationInfo, type OperationFilter } from './operations.js';
import type { OperationObject } from './spec-types.js';

/** Options of {@link fromOpenAPI}. */
export interface FromOpenApiOptions {
  /** Keep only operations that match (by tag, path glob, operationId or method). Default: all. */
  include?: OperationFilter;
  /** Leave out operations that match, applied after `include`. */
  exclude?: OperationFilter;
  /** Call this base URL instead of `servers[0].url` (e.g. a staging host). May be relative, like a server URL. */
  serverUrl?: string;
  /**
   * What a relative server URL (`/api/v3`) resolves against. Default: the spec's own URL when it
   * was loaded over http(s). Required for a relative server URL in a spec read from a file.
   */
  baseUrl?: string;
  /**
   * Credentials by security scheme name (`components.securitySchemes`): applied to each operation
   * that lists the scheme in its `security` (or the document's). API keys go where the scheme says
   * (header, query or cookie); `http` bearer, `oauth2` and `openIdConnect` send `Authorization:
   * Bearer <token>`; `http` basic takes `user:password` or `{ username, password }`.
   */
  credentials?: Readonly<Record<string, OpenApiCredential>>;
  /** Extra headers on every call, or a function of the operation and the call's context (may be async). Set last: they win. */
  headers?: OpenApiHeaders;
  /** Names the tools; must return a valid, unique MCP tool name. Default: `operationId`, else `method_path` (sanitized). */
  toolName?: (operation: OpenApiOperationInfo) => string;
  /** Time limit of one HTTP call in ms (default 30,000). */
  timeoutMs?: number;
  /** Largest response body read, in bytes (default 5 MiB); a longer one is a tool error. */
  maxResponseBytes?: number;
  /** The `fetch` to call the API (and to read a spec given by URL) with (default: the global one), e.g. one with a proxy agent. */
  fetch?: typeof fetch;
  /** The package name (default: the spec's `info.title`). */
  name?: string;
  /** Text appended to the server's `instructions` (default: none). */
  instructions?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

/** `Accept` from the success responses' media types, JSON first, anything else after. */
function acceptFor(operation: OperationObject): string {
  const types = new Set<string>();
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (!/^(2\d\d|2XX|default)$/i.test(status)) continue;
    for (const type of Object.keys(response?.content ?? {})) types.add(type);
  }
  const ordered = [...types].sort((a, b) => Number(!/json/i.test(a)) - Number(!/json/i.test(b)));
  return [...ordered, '*/*;q=0.1'].join(', ');
}

const OPTION_KEYS = optionKeys<FromOpenApiOptions>()([
  'include',
  'exclude',
  'serverUrl',
  'baseUrl',
  'credentials',
  'headers',
  'toolName',
  'timeoutMs',
  'maxResponseBytes',
  'fetch',
  'name',
  'instructions',
]);

/**
 * Builds a {@link ToolPackage} from an OpenAPI 3.0 / 3.1 document: one tool per operation
 * (filtered with `include` / `exclude`), whose input schema comes from the operation's
 * parameters and request body with every `$ref` resolved (other files and URLs included), and
 * whose calls go over `fetch` to `servers[0].url` (see {@link FromOpenApiOptions}). Responses
 * come back as text, structured content (JSON objects), images or audio; HTTP errors come back
 * as tool errors that say what failed and what to do.
 *
 * `@apidevtools/swagger-parser` (an optional peer dependency) is imported on the first call,
 * never when the module loads.
 *
 * ```ts
 * import { fromOpenAPI } from 'mcp-toolkit/openapi';
 * const petstore = await fromOpenAPI('https://petstore3.swagger.io/api/v3/openapi.json', {
 *   include: { tags: ['pet'] },
 *   credentials: { api_key: process.env.PETSTORE_KEY! },
 * });
 * server.registerTool(petstore);
 * ```
 *
 * @param spec - a file path or http(s) URL (JSON or YAML), or a parsed document object.
 * @throws InvalidOptionsError for an option key (or `include` / `exclude` filter key) it does not define.
 * @throws OpenApiError when `credentials` names a security scheme the spec does not define, a filter's
 *   `methods` names no HTTP method, the spec cannot be loaded or is not OpenAPI 3.x, a relative server URL
 *   has nothing to resolve against, `toolName` gives a bad or repeated name, or swagger-parser is
 *   not installed.
 */
export async function fromOpenAPI(spec: OpenApiSource, options: FromOpenApiOptions = {}): Promise<ToolPackage> {
  assertKnownOptions('fromOpenAPI option', options, OPTION_KEYS);
  const loaded = await loadSpec(spec, options.fetch);
  const { document } = loaded;
  const schemes = Object.keys(document.components?.securitySchemes ?? {});
  for (const name of Object.keys(options.credentials ?? {})) {
    if (!schemes.includes(name)) {
      const known = schemes.length > 0 ? `its schemes are ${schemes.join(', ')}` : 'it defines none';
      throw new OpenApiError(`credentials.${name}: the spec has no security scheme "${name}" (${known}).`);
    }
  }
  const serverUrl = resolveServerUrl(loaded, options.serverUrl, options.baseUrl);
  const operations = selectOperations(document, options.include, options.exclude);
  const names = nameOperations(operations, options.toolName);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0)) throw new OpenApiError('timeoutMs must be a positive number of milliseconds.');
  const tools = operations.map(
    (operation, index) =>
      new OpenApiOperationTool({
        name: names[index]!,
        spec: operation,
        input: buildInputPlan(operation.parameters, operation.operation.requestBody),
        auth: planAuth(document, operation.operation, options.credentials ?? {}),
        serverUrl,
        accept: acceptFor(operation.operation),
        ...(options.headers !== undefined && { headers: options.headers }),
        timeoutMs,
        maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
        fetch: options.fetch ?? globalThis.fetch,
      }),
  );
  const name = options.name ?? document.info?.title;
  return new ToolPackage(tools, {
    ...(name !== undefined && { name }),
    ...(options.instructions !== undefined && { instructions: options.instructions }),
  });
}
