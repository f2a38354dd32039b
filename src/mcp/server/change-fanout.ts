import type { DocumentStoreView } from '../../documents/document-store.js';
import type { PromptRegistryView } from '../../prompts/prompt-registry.js';
import type { ToolRegistryView } from '../../registry/tool-registry.js';
import type { ResourceRegistryView } from '../../resources/resource-registry.js';
import type { LiveViews } from './live-views.js';
import type { ServerEvents } from './server-events.js';

/**
 * Connects the model to its audiences: each registry change becomes one notification per
 * connected client (through `views`) and the matching `server.events` (tool registered,
 * removed, toggled with the whole disabled set, overridden).
 */
export function fanOutModelChanges(
  model: {
    registry: ToolRegistryView;
    documents: DocumentStoreView;
    prompts: PromptRegistryView;
    resources: ResourceRegistryView;
  },
  views: LiveViews,
  events: ServerEvents,
): void {
  const { registry } = model;
  registry.onChange((change) => {
    if (change.toolsChanged) views.toolsChanged();
    for (const tool of change.removed) events.safeEmit('toolRemoved', { tool });
    for (const tool of change.added)
      events.safeEmit('toolRegistered', { tool, enabled: !registry.isDisabled(tool.name) });
    for (const name of change.toggled) {
      events.safeEmit('toolToggled', { name, enabled: !registry.isDisabled(name), disabled: registry.disabledNames() });
    }
    if (change.overridden?.length) {
      const states = registry.snapshot();
      for (const name of change.overridden) {
        const state = states.find((entry) => entry.tool.name === name);
        if (!state) continue;
        events.safeEmit('toolOverridden', {
          name,
          exposedName: state.name,
          ...(state.override && { override: state.override }),
        });
      }
    }
  });
  model.documents.onChange((event) => {
    if (event.type === 'list_changed') views.resourcesChanged();
    else views.resourceUpdated(event.uri);
  });
  model.prompts.onChange(() => views.promptsChanged());
  model.resources.onChange(() => views.resourcesChanged());
}
