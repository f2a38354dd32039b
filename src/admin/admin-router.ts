import type { IncomingMessage } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request, Response, Router } from 'express';
import { loadExpress } from './load-express.js';
import { adminApi } from './admin-api.js';
import { sendAdminError } from './admin-errors.js';
import { authGuard, networkGuard } from './admin-guards.js';
import { AdminMonitor } from './admin-monitor.js';
import { resolveAdminOptions, type AdminRouterOptions, type AdminServer } from './admin-options.js';

/**
 * The settings page's files: `assets/admin/` at the package root. This module runs from `src/admin/`
 * (tests), from `dist/` or from a bundle chunk in `dist/chunks/`, so look upwards for it.
 */
function assetsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 5; up += 1) {
    const candidate = path.join(dir, 'assets', 'admin');
    if (existsSync(path.join(candidate, 'index.html'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('mcp-toolkit: the settings page files (assets/admin/) are missing from the installed package.');
}
const FILES: Record<string, string> = {
  'settings.js': 'application/javascript; charset=utf-8',
  'sessions.js': 'application/javascript; charset=utf-8',
  'tool-override.js': 'application/javascript; charset=utf-8',
  'upstreams.js': 'application/javascript; charset=utf-8',
  'settings.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};
/** The page loads only its own script and style and talks only to its own origin. */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-cache',
};

function sendPage(assets: string, req: Request, res: Response): void {
  // The page's relative URLs (assets/, api/) need the trailing slash: /admin -> /admin/ (the #token survives).
  const [path, query] = req.originalUrl.split('?', 2) as [string, string | undefined];
  if (!path.endsWith('/')) return res.redirect(308, `${path}/${query === undefined ? '' : `?${query}`}`);
  res.set({ ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=utf-8' }).sendFile('index.html', { root: assets });
}

/**
 * The admin surface as an express `Router`: the settings page at its root, the JSON API under
 * `api/` and its Server-Sent Events at `api/events` (reference: `docs/settings.md`). Mount it
 * where you like, e.g. `server.app.use('/admin', adminRouter(server, { token }))` on an
 * `HttpMcpServer` (before or after `start()`) or on any express app that can reach the server.
 *
 * Secure by default: every route answers loopback peers only (unless `allowRemote`) and checks
 * `Host`/`Origin` like the MCP endpoint; the API needs the bearer token (or your
 * `authenticate`), sent in the `Authorization` header only, so there is no cookie to ride
 * (CSRF). It observes the server through its public events (statistics, sessions, documents)
 * and changes it through its public methods only; listeners end when the server stops.
 *
 * @param server - a `BaseMcpServer` (sessions are listed when it has `listSessions`/`closeSession`, as `HttpMcpServer` does).
 * @param options - see {@link AdminRouterOptions}.
 * @throws InvalidOptionsError (code `INVALID_OPTIONS`) when neither a token (>= 16 characters) nor
 *   `authenticate` is given, for an unknown option or a value of the wrong type.
 */
export function adminRouter(server: AdminServer, options: AdminRouterOptions): Router {
  const resolved = resolveAdminOptions(options);
  const assets = assetsDir();
  const monitor = new AdminMonitor(server, resolved);
  const router = loadExpress().Router();
  router.use(networkGuard(resolved));
  router.get(['/', '/index.html'], (req, res) => sendPage(assets, req, res));
  router.get('/assets/:file', (req, res) => {
    const type = FILES[req.params.file];
    if (!type) return sendAdminError(res, 404, 'NOT_FOUND', `No asset ${req.params.file}.`);
    res.set({ ...PAGE_HEADERS, 'Content-Type': type }).sendFile(req.params.file, { root: assets });
  });
  const oauth = server.verifyAdminToken && ((req: IncomingMessage) => server.verifyAdminToken!(req));
  router.use('/api', authGuard(resolved, oauth), adminApi(server, monitor));
  return router;
}
