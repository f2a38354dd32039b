import type { DocumentStoreView } from '../../documents/document-store.js';
import type { PromptRegistryView } from '../../prompts/prompt-registry.js';
import type { ToolRegistry } from '../../registry/tool-registry.js';
import type { ResourceRegistryView } from '../../resources/resource-registry.js';

/** What {@link requiredScopesOf} looks items up in. */
export interface ScopedItems {
  readonly registry: Pick<ToolRegistry, 'getExposed'>;
  readonly prompts: Pick<PromptRegistryView, 'get'>;
  readonly resources: Pick<ResourceRegistryView, 'get' | 'getTemplate' | 'match'>;
  readonly documents: Pick<DocumentStoreView, 'get'>;
}

const named = (params: Record<string, unknown>, key: string): string | undefined =>
  typeof params[key] === 'string' ? (params[key] as string) : undefined;

/**
 * The `requiredScopes` of the item one request targets, for the HTTP step-up gate (403
 * `insufficient_scope` before any view runs): the tool of `tools/call`, the prompt of
 * `prompts/get`, the resource or template serving a `resources/read` URI (in read order: fixed
 * resource, document, template), and the prompt or template of a `completion/complete`.
 * Undefined for every other request and for items without scopes.
 */
export function requiredScopesOf(items: ScopedItems) {
  const ofUri = (uri: string | undefined): readonly string[] | undefined => {
    if (uri === undefined) return undefined;
    const resource = items.resources.get(uri);
    if (resource) return resource.config.requiredScopes;
    if (items.documents.get(uri)) return undefined;
    return items.resources.match(uri)?.template.config.requiredScopes;
  };
  return (method: string, params: Record<string, unknown>): readonly string[] | undefined => {
    switch (method) {
      case 'tools/call':
        return items.registry.getExposed(named(params, 'name') ?? '')?.requiredScopes;
      case 'prompts/get':
        return items.prompts.get(named(params, 'name') ?? '')?.requiredScopes;
      case 'resources/read':
        return ofUri(named(params, 'uri'));
      case 'completion/complete': {
        const ref =
          typeof params.ref === 'object' && params.ref !== null ? (params.ref as Record<string, unknown>) : {};
        if (ref.type === 'ref/prompt') return items.prompts.get(named(ref, 'name') ?? '')?.requiredScopes;
        const uri = named(ref, 'uri');
        return uri === undefined ? undefined : items.resources.getTemplate(uri)?.config.requiredScopes;
      }
      default:
        return undefined;
    }
  };
}
