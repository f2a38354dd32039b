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
