/**
 * `mcp-toolkit/state`: where the disabled-tool set lives (docs/settings.md). Give a server
 * `toolState: new FileToolStateStore(path)` to keep toggles across restarts, or implement
 * {@link ToolStateStore} for your own storage. The Redis store is in `mcp-toolkit/cluster`.
 * The stores also keep the operators' tool overrides (`server.setToolOverride`, {@link ToolOverride}).
 */
export { ToolStateError, ToolStateLockedError, ToolOverrideError } from '../errors.js';
export type { ToolOverride, ToolOverrides } from '../tool-overrides.js';
export type { ToolStateStore, ToolStateSnapshot } from '../state/tool-state-store.js';
export { MemoryToolStateStore } from '../state/memory-tool-state-store.js';
export { FileToolStateStore } from '../state/file-tool-state-store.js';
