import type { UpstreamStatus } from '../upstream-status.js';
import type { AdminServer } from './admin-options.js';

/**
 * One upstream as the API shows it: state, tool count, failures; its target without credentials and
 * its last error already redacted by the composition; never its environment, headers or arguments.
 */
export function upstreamJson(status: UpstreamStatus) {
  return {
    name: status.name,
    namespace: status.namespace,
    target: status.target,
    state: status.state,
    era: status.era ?? null,
    tools: status.tools,
    nameConflicts: status.nameConflicts ?? [],
    failures: status.failures,
    lastError: status.lastError ?? null,
    retryAt: status.retryAt ?? null,
  };
}

/** A tool of an upstream that is down: known by name from its last listing, not registered now. */
export interface OfflineTool {
  readonly name: string;
  /** Its upstream (the tool's package). */
  readonly package: string;
}

/**
 * The tools of upstreams that are not connected, by their last listing (`UpstreamStatus.knownTools`),
 * minus names registered now: the settings page lists them and lets them be toggled (the disabled set
 * is by name, so the toggle applies when the upstream returns).
 */
export function offlineTools(server: AdminServer, registered: ReadonlySet<string>): OfflineTool[] {
  const offline: OfflineTool[] = [];
  for (const status of server.upstreams ?? []) {
    if (status.state === 'connected') continue;
    for (const name of status.knownTools ?? []) {
      if (!registered.has(name)) offline.push({ name, package: status.name });
    }
  }
  return offline;
}
