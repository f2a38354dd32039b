import type { DocumentStoreView } from '../../documents/document-store.js';
import type { PromptRegistryView } from '../../prompts/prompt-registry.js';
import type { ToolRegistryView } from '../../registry/tool-registry.js';
import type { ResourceRegistryView } from '../../resources/resource-registry.js';

/**
 * A frozen object exposing only the listed members of `target`: methods bound to it, other
 * members as getters. The server hands these out as `server.tools`, `prompts`, `resources` and
 * `documents`, so the registries can be read but only the server's facade can change them
 * (the facade is where cross-registry checks such as URI uniqueness live).
 *
 * `members` is a record rather than an array so the compiler checks it lists every member of `View`.
 */
export function readOnlyView<View extends object>(target: View, members: Record<keyof View, true>): View {
  const view = {};
  for (const key of Object.keys(members) as Array<keyof View & string>) {
    const value = target[key];
    const descriptor: PropertyDescriptor =
      typeof value === 'function'
        ? { value: (value as (...args: unknown[]) => unknown).bind(target) }
        : { get: () => target[key] };
    Object.defineProperty(view, key, { ...descriptor, enumerable: true });
  }
  return Object.freeze(view) as View;
}

/** The registries a server hands out read-only. */
interface Registries {
  readonly tools: ToolRegistryView;
  readonly documents: DocumentStoreView;
  readonly prompts: PromptRegistryView;
  readonly resources: ResourceRegistryView;
}

/** The server's `tools`, `documents`, `prompts` and `resources`: a {@link readOnlyView} of each registry. */
export function readOnlyViews({ tools, documents, prompts, resources }: Registries): Registries {
  return {
    tools: readOnlyView(tools, TOOLS_VIEW),
    documents: readOnlyView(documents, DOCUMENTS_VIEW),
    prompts: readOnlyView(prompts, PROMPTS_VIEW),
    resources: readOnlyView(resources, RESOURCES_VIEW),
  };
}

/** The members each public registry view exposes (the read side of `ToolRegistryView` etc.). */
export const TOOLS_VIEW = {
  get: true,
  isEnabled: true,
  isDisabled: true,
  disabledNames: true,
  snapshot: true,
  tools: true,
  size: true,
  overrides: true,
  getExposed: true,
  onChange: true,
} as const;
export const DOCUMENTS_VIEW = {
  converters: true,
  maxFileSizeBytes: true,
  maxReadChars: true,
  list: true,
  folderRoots: true,
  get: true,
  read: true,
  readFull: true,
  onChange: true,
  watchReady: true,
  skipped: true,
  onSkip: true,
} as const;
export const PROMPTS_VIEW = { get: true, prompts: true, size: true, list: true, onChange: true } as const;
export const RESOURCES_VIEW = {
  get: true,
  getTemplate: true,
  match: true,
  templates: true,
  list: true,
  listTemplates: true,
  onChange: true,
} as const;
