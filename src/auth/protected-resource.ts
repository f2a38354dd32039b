import type { ResolvedAuthorization } from './options.js';

/** The well-known path of RFC 9728 metadata. */
export const METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * Where the metadata of `resource` lives (RFC 9728 section 3.1): the well-known path inserted
 * between the resource's origin and its path, e.g. `https://h/mcp` ->
 * `https://h/.well-known/oauth-protected-resource/mcp`.
 */
export function metadataUrlOf(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.origin}${METADATA_PATH}${path}`;
}

/** The RFC 9728 section 2 document of `resource`. */
export function protectedResourceMetadata(
  options: ResolvedAuthorization,
  resource: string,
  serverName: string,
): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [options.issuer],
    ...(options.scopesSupported.length > 0 && { scopes_supported: [...options.scopesSupported] }),
    bearer_methods_supported: ['header'],
    resource_name: options.resourceName ?? serverName,
    ...(options.resourceDocumentation && { resource_documentation: options.resourceDocumentation }),
  };
}
