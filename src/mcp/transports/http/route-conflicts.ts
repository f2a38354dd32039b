import { METADATA_PATH } from '../../../auth/protected-resource.js';
import { invalidOptionValue } from '../../../option-values.js';

/** Express's default matching of a literal path: case-insensitive, a trailing slash optional. */
function routeKey(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return (trimmed || '/').toLowerCase();
}

/** One route the server mounts: the option that sets it (none for the OAuth metadata) and whether the app gave it. */
interface Route {
  readonly option?: 'path' | 'healthPath' | 'readyPath';
  readonly path: string;
  readonly given: boolean;
  readonly name: string;
}

/**
 * Refuses a health or readiness path that another route of the server already answers: express runs
 * the route mounted first, so `healthPath: '/mcp'` would answer the MCP endpoint's GET (the stream a
 * legacy client gets `list_changed` on) with `{ status: 'ok' }`. The paths are literal (`ROUTE`).
 * The error names the option the app set (`path: '/health'` against the default `healthPath`, say).
 * @throws InvalidOptionsError naming the option and the route it would share.
 */
export function checkRouteConflicts(
  owner: string,
  options: { path?: string; healthPath?: string | false; readyPath?: string | false },
  resolved: { path: string; healthPath: string | false; readyPath: string | false; authorization: boolean },
): void {
  const routes: Route[] = [
    { option: 'path', path: resolved.path, given: options.path !== undefined, name: 'the MCP endpoint' },
  ];
  if (resolved.authorization) {
    // As `mountResourceMetadata` mounts them (one route when the endpoint is `/`).
    for (const path of new Set([METADATA_PATH, `${METADATA_PATH}${resolved.path.replace(/\/+$/, '')}`])) {
      routes.push({ path, given: false, name: 'the OAuth protected-resource metadata' });
    }
  }
  for (const [option, name] of [
    ['healthPath', 'the liveness route'],
    ['readyPath', 'the readiness route'],
  ] as const) {
    const path = resolved[option];
    if (path !== false) routes.push({ option, path, given: options[option] !== undefined, name });
  }
  for (const [at, route] of routes.entries()) {
    const earlier = routes.slice(0, at).find((other) => routeKey(other.path) === routeKey(route.path));
    if (!earlier) continue;
    // Blame what the app set: of two defaults none clash, so at least one of the pair was given.
    const [blamed, other] = route.given || !earlier.option ? [route, earlier] : [earlier, route];
    const otherWords = other.option
      ? `${other.name}'s (${other.option}${other.given ? '' : ', by default'} "${other.path}")`
      : `${other.name}'s`;
    const escape = other.option && other.option !== 'path' && !other.given ? `, or set ${other.option}` : '';
    throw invalidOptionValue(
      `${owner} option`,
      blamed.option ?? 'path',
      'a path no other route of the server answers',
      blamed.path,
      `It is ${otherWords} route too; pick another path${blamed.option === 'path' ? '' : ', or false to leave the route out'}${escape}.`,
    );
  }
}
