import { METADATA_PATH } from '../../../auth/protected-resource.js';
import { invalidOptionValue } from '../../../option-values.js';

/** Express's default matching: case-insensitive, a trailing slash optional. */
function routeKey(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return (trimmed || '/').toLowerCase();
}

/**
 * Refuses a health or readiness path that another route of the server already answers: express runs
 * the route mounted first, so `healthPath: '/mcp'` would answer the MCP endpoint's GET (the stream a
 * legacy client gets `list_changed` on) with `{ status: 'ok' }`.
 * @throws InvalidOptionsError naming the option and the route it would shadow.
 */
export function checkRouteConflicts(
  owner: string,
  routes: { path: string; healthPath: string | false; readyPath: string | false; authorization: boolean },
): void {
  const taken = new Map([[routeKey(routes.path), 'the MCP endpoint (option path)']]);
  if (routes.authorization) {
    taken.set(routeKey(METADATA_PATH), 'the OAuth protected-resource metadata');
    taken.set(routeKey(`${METADATA_PATH}${routes.path}`), 'the OAuth protected-resource metadata');
  }
  for (const option of ['healthPath', 'readyPath'] as const) {
    const path = routes[option];
    if (path === false) continue;
    const other = taken.get(routeKey(path));
    if (other) {
      throw invalidOptionValue(
        `${owner} option`,
        option,
        `a path no other route of the server answers`,
        path,
        `It is ${other}'s route; pick another path, or false to leave the route out.`,
      );
    }
    taken.set(routeKey(path), `${option}`);
  }
}
