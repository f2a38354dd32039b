import type { Express, RequestHandler } from 'express';
import { METADATA_PATH } from '../../../auth/protected-resource.js';
import type { ResourceServer } from '../../../auth/resource-server.js';
import type { AuthenticateHook } from './options.js';

/**
 * Serves the RFC 9728 metadata of the endpoint at `/.well-known/oauth-protected-resource` and at
 * the path-suffixed form (`/.well-known/oauth-protected-resource/mcp`, RFC 9728 section 3.1),
 * readable from any origin (it is public and browser clients fetch it).
 */
export function mountResourceMetadata(
  app: Express,
  endpointPath: string,
  resourceServer: ResourceServer,
  resource: () => string,
): void {
  const paths = new Set([METADATA_PATH, `${METADATA_PATH}${endpointPath.replace(/\/+$/, '')}`]);
  const route: RequestHandler = (req, res) => {
    res.set('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') return void res.status(204).end();
    res.set('Cache-Control', 'max-age=300');
    res.json(resourceServer.metadata(resource()));
  };
  for (const path of paths) app.get(path, route).options(path, route);
}

/**
 * The `authenticate` hook of a resource server: the bearer token of every request, verified for
 * `resource()`; a token verified lately on this connection is accepted without a promise.
 */
export function resourceServerHook(resourceServer: ResourceServer, resource: () => string): AuthenticateHook {
  return (req) =>
    resourceServer.authenticate(
      { authorization: req.headers.authorization, url: req.url, connection: req.socket },
      resource(),
    );
}
