// Cloudflare Worker (workerd, no `nodejs_compat`): `wrangler dev examples/edge/worker.ts`, or bundle it
// (`node examples/edge/build-worker.mjs`) and run `workerd serve examples/edge/workerd.capnp`.
// ADMIN_TOKEN is a binding (a secret in wrangler, a text binding in workerd.capnp).
// #region worker
import { createEdgeServer, edgeApp } from './server.js';

const server = createEdgeServer(); // one per isolate: toggles last as long as the isolate
let app: ((request: Request) => Promise<Response>) | undefined;

export default {
  fetch(request: Request, env: { ADMIN_TOKEN?: string }): Promise<Response> {
    app ??= edgeApp(server, env.ADMIN_TOKEN);
    return app(request);
  },
};
// #endregion worker
