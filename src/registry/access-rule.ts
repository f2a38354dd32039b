import type { AuthInfo } from '@modelcontextprotocol/server';

/** Who may see and use an item: true to allow (`auth` is the caller's, undefined without authentication). */
export type AccessRule = (auth: AuthInfo | undefined) => boolean;

/**
 * One access rule out of `requiredScopes` and an app's `canAccess`: the caller must hold every
 * required scope (in `auth.scopes`) and pass `canAccess`. Undefined when there is neither, so
 * items without rules keep the fast unfiltered listing.
 * @throws TypeError when `requiredScopes` is not an array of non-empty strings.
 */
export function accessRuleOf(
  owner: string,
  requiredScopes: readonly string[] | undefined,
  canAccess: AccessRule | undefined,
): AccessRule | undefined {
  if (requiredScopes === undefined || requiredScopes.length === 0) return canAccess;
  if (!Array.isArray(requiredScopes) || requiredScopes.some((scope) => typeof scope !== 'string' || scope === '')) {
    throw new TypeError(`${owner}: requiredScopes must be an array of scope names`);
  }
  const scopes = [...requiredScopes];
  return (auth) => {
    const granted = auth?.scopes ?? [];
    return scopes.every((scope) => granted.includes(scope)) && (canAccess === undefined || canAccess(auth));
  };
}

/** Whether `rule` admits `auth`: no rule admits everyone; a rule that throws denies (never crashes a listing). */
export function admits(rule: AccessRule | undefined, auth: AuthInfo | undefined): boolean {
  if (!rule) return true;
  try {
    return rule(auth) === true;
  } catch {
    return false;
  }
}
