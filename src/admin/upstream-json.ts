import type { UpstreamStatus } from '../upstream-status.js';

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
    failures: status.failures,
    lastError: status.lastError ?? null,
    retryAt: status.retryAt ?? null,
  };
}
