import {
  ResourceNotFoundError as SdkResourceNotFoundError,
  type AuthInfo,
  type Resource,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { DocumentResource } from '../../documents/document-store.js';
import type { DocumentBackend } from '../server/document-support.js';
import { InvalidPathError, ResourceNotFoundError } from '../../errors.js';
import { admits } from '../../registry/access-rule.js';
import type { RequestContext } from '../../registry/request-context.js';
import { toResourceContents, type ResourceReadContents } from '../../resources/resource-contents.js';
import type { ResourceRegistry } from '../../resources/resource-registry.js';
import { toProtocolError } from './handler-errors.js';
import { paginate } from './pagination.js';
import type { ServerEvents } from '../server/server-events.js';
import { buildRequestContext } from '../context/request-context-builder.js';
import type { HandlerRoutes } from '../pipeline/request-pipeline.js';

/** What the resource handlers read: file documents and in-memory resources / templates. */
export interface ResourceSources {
  readonly documents: DocumentBackend;
  readonly resources: ResourceRegistry;
  /** Reports a template `list()` that failed (its entries are left out of `resources/list`). */
  onError(error: unknown): void;
  /** Entries per `resources/list` page (default 1000). */
  readonly pageSize?: number;
  /** Where `resources/read` reports its `resourceRead` event. */
  readonly events?: ServerEvents;
}

/** Wire entries of the documents, rebuilt only when the store's list changes (it is cached there too). */
const documentEntryCache = new WeakMap<readonly DocumentResource[], readonly Resource[]>();
function documentEntries(documents: DocumentBackend): readonly Resource[] {
  const list = documents.list();
  let entries = documentEntryCache.get(list);
  if (!entries) {
    entries = list.map(documentEntry);
    documentEntryCache.set(list, entries);
  }
  return entries;
}

function documentEntry({ uri, name, title, description, mimeType, size }: DocumentResource): Resource {
  return {
    uri,
    name,
    ...(title !== undefined && { title }),
    ...(description !== undefined && { description }),
    mimeType,
    ...(size !== undefined && { size }),
  };
}

/** The concrete resources that templates list, each filled with its template's metadata. */
async function templateEntries(sources: ResourceSources, context: RequestContext): Promise<Resource[]> {
  const lists = await Promise.all(
    sources.resources.templates().map(async (template) => {
      if (!template.config.list || !admits(template.access, context.authInfo)) return [];
      try {
        const { uriTemplate: _template, ...defaults } = template.listed;
        return (await template.config.list(context)).map((entry) => ({ ...defaults, ...entry }));
      } catch (error) {
        sources.onError(error);
        return [];
      }
    }),
  );
  return lists.flat();
}

/**
 * Reads `uri` in `resources/read` lookup order: the fixed resource with exactly this URI, then
 * the documents, then the first matching template. With `caller`, a resource or template whose
 * access rule (`canAccess` / `requiredScopes`) refuses `caller.auth` is not found (as a hidden
 * prompt or tool is unknown); without it (the app's own reads) no rule applies.
 * @throws ResourceNotFoundError (`RESOURCE_NOT_FOUND`) when nothing serves the URI (for this
 *   caller); whatever the resource's `read()` or the document store throws.
 */
export async function readResource(
  sources: Pick<ResourceSources, 'documents' | 'resources'>,
  uri: string,
  context: () => RequestContext,
  caller?: { readonly auth: AuthInfo | undefined },
): Promise<ResourceReadContents> {
  const refused = (entry: { readonly access?: (auth: AuthInfo | undefined) => boolean }) =>
    caller !== undefined && !admits(entry.access, caller.auth);
  const resource = sources.resources.get(uri);
  if (resource) {
    if (refused(resource)) throw new ResourceNotFoundError(uri);
    return toResourceContents(await resource.config.read(uri, context()), uri, resource.config.mimeType);
  }
  if (sources.documents.get(uri)) return sources.documents.read(uri);
  const matched = sources.resources.match(uri);
  if (matched) {
    const { template, variables } = matched;
    if (refused(template)) throw new ResourceNotFoundError(uri);
    return toResourceContents(await template.config.read(uri, variables, context()), uri, template.config.mimeType);
  }
  throw new ResourceNotFoundError(uri);
}

/**
 * Installs `resources/list`, `resources/templates/list` and `resources/read` on a view
 * (MCP "Resources"), reading the shared document store and resource registry on every
 * request. Lists: documents, then fixed resources, then what templates `list()`, each in
 * registration order, in pages of `pageSize` entries with an opaque `nextCursor`. Reads are lazy: a file is read (and converted) and a resource's `read()`
 * runs when a client asks. Resources and templates whose access rule refuses the caller
 * (`ctx.http.authInfo`) are left out of its lists and not found on its reads.
 *
 * Errors: an unknown URI or a vanished file -> "Resource not found" (the SDK sends it as
 * -32602 on 2026-07-28, per that revision); a too-large file or a failed conversion -> -32603
 * naming the file; an error thrown by a `read()` -> see `toProtocolError`.
 */
export function installResourceHandlers(server: Server, routes: HandlerRoutes, sources: ResourceSources): void {
  const contextOf = (ctx: ServerContext) => buildRequestContext(server, ctx);

  routes.setRequestHandler('resources/list', async (request, ctx) => {
    const all = [
      ...documentEntries(sources.documents),
      ...sources.resources.listFor(ctx.http?.authInfo),
      ...(await templateEntries(sources, contextOf(ctx))),
    ];
    const { page, nextCursor } = paginate(all, request.params?.cursor, sources.pageSize);
    return { resources: page as Resource[], ...(nextCursor !== undefined && { nextCursor }) };
  });

  routes.setRequestHandler('resources/templates/list', (request, ctx) => {
    const templates = sources.resources.listTemplatesFor(ctx.http?.authInfo);
    const { page, nextCursor } = paginate(templates, request.params?.cursor, Infinity);
    return { resourceTemplates: [...page], ...(nextCursor !== undefined && { nextCursor }) };
  });

  routes.setRequestHandler('resources/read', async (request, ctx) => {
    const { uri } = request.params;
    const started = performance.now();
    const report = (ok: boolean, error?: unknown) =>
      sources.events?.safeEmit('resourceRead', {
        uri,
        ok,
        durationMs: performance.now() - started,
        ...(error !== undefined && { error }),
        ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
      });
    try {
      const contents = await readResource(sources, uri, () => contextOf(ctx), { auth: ctx.http?.authInfo });
      report(true);
      return { contents };
    } catch (error) {
      report(false, error);
      // A file that now resolves outside its folder is reported as missing: where it points stays private.
      if (error instanceof InvalidPathError && error.code === 'PATH_OUTSIDE_ROOT') {
        throw new SdkResourceNotFoundError(uri, `Resource not found: ${uri}`);
      }
      throw toProtocolError(error, `Reading ${uri}`);
    }
  });
}
