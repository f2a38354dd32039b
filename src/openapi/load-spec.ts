import { OpenApiError } from '../errors.js';
import type { OpenApiDocument, ServerObject } from './spec-types.js';

/** Where a spec comes from: a file path, an http(s) URL, or an already parsed document object. */
export type OpenApiSource = string | URL | Record<string, unknown>;

type SwaggerParserModule = typeof import('@apidevtools/swagger-parser');

let parser: Promise<SwaggerParserModule> | undefined;

/** swagger-parser and its dependencies (~150 CommonJS modules, ~150 ms) load on the first `fromOpenAPI`, never at import. */
function loadParser(): Promise<SwaggerParserModule> {
  parser ??= import('@apidevtools/swagger-parser')
    .then((module) => ((module as { default?: SwaggerParserModule }).default ?? module) as SwaggerParserModule)
    .catch((error: unknown) => {
      parser = undefined;
      throw new OpenApiError(
        'fromOpenAPI needs the optional peer dependency @apidevtools/swagger-parser: ' +
          'npm install @apidevtools/swagger-parser',
        { cause: error },
      );
    });
  return parser;
}

/** A parsed spec, every `$ref` (internal, other files, URLs) replaced by its target, plus where it came from. */
export interface LoadedSpec {
  readonly document: OpenApiDocument;
  /** The spec's own URL when it was loaded over http(s): relative server URLs resolve against it. */
  readonly url?: string;
}

const SPEC_TIMEOUT_MS = 30_000;

/**
 * Reads the spec's own URL with `fetch`. json-schema-ref-parser refuses loopback and private
 * addresses (its guard against `$ref`s that reach into internal networks); the URL the app
 * passes itself is trusted, and only it: `$ref`s inside the spec still go through that guard.
 */
function entryResolver(url: string, fetchSpec: typeof fetch) {
  return {
    order: 0,
    text: '',
    canRead: (file: { url: string }) => file.url === url,
    async read(): Promise<Buffer> {
      const response = await fetchSpec(url, { signal: AbortSignal.timeout(SPEC_TIMEOUT_MS) });
      if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`);
      const bytes = Buffer.from(await response.arrayBuffer());
      this.text = bytes.toString('utf8');
      return bytes;
    },
  };
}

/**
 * swagger-parser rewrites a root-relative server URL (`/api/v3`) of a spec read over http(s) as
 * `protocol://hostname/api/v3`, dropping the port. Put the relative URL back (it resolves
 * against the spec URL, port and all, in {@link resolveServerUrl}) unless the spec itself says
 * the absolute one.
 */
function restoreRelativeServers(document: Record<string, unknown>, url: string, text: string): void {
  const { protocol, hostname, port } = new URL(url);
  const rewritten = `${protocol}//${hostname}`;
  if (!port) return;
  for (const server of (document.servers ?? []) as ServerObject[]) {
    if (server.url.startsWith(`${rewritten}/`) && !text.includes(server.url)) {
      server.url = server.url.slice(rewritten.length);
    }
  }
}

function describe(source: OpenApiSource): string {
  return typeof source === 'string' || source instanceof URL ? String(source) : 'the given document';
}

/**
 * Reads, parses (JSON or YAML) and dereferences an OpenAPI 3.x document with
 * `@apidevtools/swagger-parser`. External `$ref`s resolve relative to the spec's file or URL.
 * Circular references stay as object cycles (the schema converter turns them into `$defs`). The spec is not
 * validated against the OpenAPI meta-schema: real-world specs often break it in ways that do
 * not matter for calling them.
 *
 * @throws OpenApiError when the spec cannot be read or parsed, a `$ref` does not resolve, the
 *   document is Swagger 2.0 or not OpenAPI at all, or swagger-parser is not installed.
 */
export async function loadSpec(source: OpenApiSource, fetchSpec: typeof fetch = fetch): Promise<LoadedSpec> {
  const SwaggerParser = await loadParser();
  const href = source instanceof URL ? source.href : typeof source === 'string' ? source : undefined;
  const url = href && /^https?:\/\//i.test(href) ? new URL(href).href : undefined;
  const input =
    source instanceof URL ? source.href : typeof source === 'string' ? source : (structuredClone(source) as never); // dereferencing works in place: keep the caller's object
  const entry = url === undefined ? undefined : entryResolver(url, fetchSpec);
  let document: Record<string, unknown>;
  try {
    document = (await SwaggerParser.dereference(input, {
      dereference: { circular: true },
      ...(entry && { resolve: { entry } }),
    } as never)) as unknown as Record<string, unknown>;
  } catch (error) {
    throw new OpenApiError(`Could not load the OpenAPI spec ${describe(source)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (typeof document.swagger === 'string') {
    throw new OpenApiError(
      `${describe(source)} is Swagger ${document.swagger}; fromOpenAPI reads OpenAPI 3.x ` +
        '(convert it first, e.g. with swagger2openapi).',
    );
  }
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.')) {
    throw new OpenApiError(`${describe(source)} is not an OpenAPI 3.x document (no "openapi": "3.x" field).`);
  }
  if (entry && url) restoreRelativeServers(document, url, entry.text);
  return { document: document as unknown as OpenApiDocument, ...(url !== undefined && { url }) };
}

/**
 * The base URL calls go to: `serverUrl` when given, else the first `servers[]` entry with its
 * variables set to their defaults (OpenAPI 3.x "Server Object"). A relative URL (the Petstore's
 * `/api/v3`) resolves against `baseUrl`, else against the spec's own http(s) URL.
 * The result has no trailing slash, so operation paths append to it.
 *
 * @throws OpenApiError when the URL is relative and there is nothing to resolve it against.
 */
export function resolveServerUrl(spec: LoadedSpec, serverUrl?: string, baseUrl?: string): string {
  let url = serverUrl;
  if (url === undefined) {
    const server = spec.document.servers?.[0];
    url = server?.url ?? '/';
    for (const [name, variable] of Object.entries(server?.variables ?? {})) {
      url = url.replaceAll(`{${name}}`, String(variable.default));
    }
  }
  const against = baseUrl ?? spec.url;
  let resolved: URL;
  try {
    resolved = against === undefined ? new URL(url) : new URL(url, against);
  } catch {
    throw new OpenApiError(
      `The API's server URL "${url}" is relative and the spec was not loaded from http(s): ` +
        'pass baseUrl (e.g. "https://api.example.com") or serverUrl to fromOpenAPI.',
    );
  }
  return resolved.href.replace(/\/+$/, '');
}
