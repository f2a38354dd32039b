import type { ErrorRequestHandler, Request, Response, Router } from 'express';
import { loadExpress } from './load-express.js';
import { z } from 'zod';
import type { ToolState } from '../registry/tool-registry.js';
import { ToolOverrideError } from '../errors.js';
import { MAX_OVERRIDE_DESCRIPTION, MAX_OVERRIDE_TITLE, TOOL_NAME_PATTERN } from '../tool-overrides.js';
import { sendAdminError } from './admin-errors.js';
import { offlineTools, upstreamJson, type OfflineTool } from './upstream-json.js';
import type { AdminMonitor } from './admin-monitor.js';
import type { AdminServer } from './admin-options.js';

/** Largest JSON body the API reads. */
const MAX_BODY = '64kb';
/** Tool names are short identifiers (MCP tool names: 1-128 characters); leave room, refuse junk. */
const toolName = z.string().min(1).max(256);
const toggleBody = z.strictObject({ enabled: z.boolean() });
const disabledBody = z.strictObject({ disabled: z.array(toolName).max(10_000) });
/** `null`, absent or "" keeps the tool's own field; `name` follows the MCP tool-name rules (SEP-986). */
const overrideBody = z.strictObject({
  name: z
    .string()
    .regex(TOOL_NAME_PATTERN, 'use 1-128 characters from A-Z, a-z, 0-9, "_", "-" and "."')
    .or(z.literal(''))
    .nullish(),
  title: z.string().max(MAX_OVERRIDE_TITLE).nullish(),
  description: z.string().max(MAX_OVERRIDE_DESCRIPTION).nullish(),
});

const now = () => Date.now();

function toolJson(state: ToolState, monitor: AdminMonitor) {
  const { tool } = state;
  return {
    name: tool.name,
    /** The name clients list and call (an override's new name, or `name`). */
    exposedName: state.name,
    override: state.override ?? null,
    title: tool.title ?? null,
    description: tool.description ?? null,
    package: state.packageName ?? null,
    enabled: state.enabled,
    /** False for a tool of an upstream that is down (listed from its last listing; see `offlineToolJson`). */
    available: true,
    stats: monitor.stats?.of(tool.name) ?? null,
  };
}

/** A down upstream's tool: its toggle is stored by name and applies when the upstream returns. */
function offlineToolJson(tool: OfflineTool, server: AdminServer, monitor: AdminMonitor) {
  const override = server.tools.overrides()[tool.name];
  return {
    name: tool.name,
    exposedName: override?.name ?? tool.name,
    override: override ?? null,
    title: null,
    description: null,
    package: tool.package,
    enabled: !server.tools.isDisabled(tool.name),
    available: false,
    stats: monitor.stats?.of(tool.name) ?? null,
  };
}

/** Parses `req.body` with `schema`, or answers 415/400 and returns undefined. */
function bodyOf<T>(req: Request, res: Response, schema: z.ZodType<T>): T | undefined {
  if (!req.is('application/json')) {
    sendAdminError(res, 415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with "Content-Type: application/json".');
    return undefined;
  }
  const parsed = schema.safeParse(req.body);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
    sendAdminError(res, 400, 'INVALID_REQUEST', `Invalid request body (${issues.join('; ')}).`);
    return undefined;
  }
  return parsed.data;
}

/** express.json's parse failures (and oversize bodies) as admin errors. */
const bodyErrors: ErrorRequestHandler = (
  error: { type?: string; status?: number; message?: string },
  _req,
  res,
  next,
) => {
  if (error.type === 'entity.parse.failed') {
    return sendAdminError(res, 400, 'BAD_JSON', `The request body is not valid JSON: ${error.message}`);
  }
  if (error.type === 'entity.too.large') {
    return sendAdminError(res, 413, 'INVALID_REQUEST', `The request body is larger than ${MAX_BODY}.`);
  }
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) {
    return sendAdminError(res, error.status, 'INVALID_REQUEST', error.message ?? 'Bad request.');
  }
  next(error);
};

/**
 * The JSON routes (see docs/settings.md for the reference): tools and their state, the
 * disabled set, sessions, documents, statistics and the event stream. Every handler goes
 * through the server's public facade.
 */
export function adminApi(server: AdminServer, monitor: AdminMonitor): Router {
  const express = loadExpress();
  const api = express.Router();
  api.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  api.use(express.json({ limit: MAX_BODY, strict: true, type: 'application/json' }), bodyErrors);

  const allTools = () => {
    const states = server.getToolStates();
    const offline = offlineTools(server, new Set(states.map((state) => state.tool.name)));
    return [
      ...states.map((state) => toolJson(state, monitor)),
      ...offline.map((tool) => offlineToolJson(tool, server, monitor)),
    ];
  };
  /** A registered tool, or one of a down upstream (toggled by name like the rest). */
  const knownTool = (name: string) => allTools().find((tool) => tool.name === name);
  const notFound = (res: Response, name: string) =>
    sendAdminError(res, 404, 'TOOL_NOT_FOUND', `No tool named "${name}" is registered or known from an upstream.`);

  api.get('/tools', (_req, res) => {
    res.json({ tools: allTools(), disabled: server.tools.disabledNames() });
  });

  api.get('/tools/:name', (req, res) => {
    const tool = knownTool(req.params.name);
    if (!tool) return notFound(res, req.params.name);
    res.json({ tool });
  });

  api.patch('/tools/:name', async (req, res) => {
    const body = bodyOf(req, res, toggleBody);
    if (!body) return;
    const name = req.params.name;
    const known = knownTool(name);
    if (!known) return notFound(res, name);
    if (body.enabled) server.enableTool(name);
    else server.disableTool(name);
    await server.flushToolState(); // answer once the change is stored
    // The server emits toolToggled for registered tools only: other open pages learn of this one here.
    if (!known.available) monitor.feed.send('toolToggled', { name, enabled: body.enabled });
    res.json({ tool: knownTool(name) });
  });

  // Tool overrides by registered name: PUT replaces the tool's override, DELETE clears it.
  const setOverride = async (name: string, res: Response, override: z.infer<typeof overrideBody> | undefined) => {
    if (!knownTool(name)) return notFound(res, name);
    const clean = override && Object.fromEntries(Object.entries(override).filter(([, value]) => value));
    try {
      server.setToolOverride(name, clean && Object.keys(clean).length > 0 ? clean : undefined);
    } catch (error) {
      if (!(error instanceof ToolOverrideError)) throw error;
      const conflict = error.reason === 'collision';
      return sendAdminError(
        res,
        conflict ? 409 : 400,
        conflict ? 'OVERRIDE_CONFLICT' : 'INVALID_OVERRIDE',
        error.message,
      );
    }
    await server.flushToolState(); // answer once the change is stored
    res.json({ tool: knownTool(name) });
  };

  api.put('/tools/:name/override', async (req, res) => {
    const body = bodyOf(req, res, overrideBody);
    if (body) await setOverride(req.params.name, res, body);
  });

  api.delete('/tools/:name/override', (req, res) => setOverride(req.params.name, res, undefined));

  api.get('/disabled', (_req, res) => {
    res.json({ disabled: server.tools.disabledNames() });
  });

  api.put('/disabled', async (req, res) => {
    const body = bodyOf(req, res, disabledBody);
    if (!body) return;
    server.setDisabledTools(body.disabled);
    await server.flushToolState(); // answer once the change is stored
    res.json({ disabled: server.tools.disabledNames() });
  });

  api.get('/sessions', (_req, res) => {
    const at = now();
    const sessions = (server.listSessions?.() ?? []).map((info) => ({
      id: info.id,
      era: info.era ?? 'legacy',
      client: info.clientInfo ? { name: info.clientInfo.name, version: info.clientInfo.version } : null,
      clientId: info.clientId ?? null,
      createdAt: info.createdAt,
      lastActivityAt: info.lastActivityAt,
      ageMs: at - info.createdAt,
      idleMs: info.openRequests > 0 ? 0 : at - info.lastActivityAt,
      openRequests: info.openRequests,
    }));
    res.json({ supported: typeof server.listSessions === 'function', sessions });
  });

  // The replica's cluster: its id, and whether Redis answers (when the membership reports it).
  api.get('/cluster', (_req, res) => {
    const cluster = server.cluster;
    if (!cluster) return res.json({ supported: false });
    res.json({ supported: true, replicaId: cluster.replicaId, status: cluster.status?.() ?? null });
  });

  // Every replica's legacy sessions when the server is one replica of a cluster (docs/scaling.md).
  api.get('/cluster/sessions', async (_req, res) => {
    if (!server.cluster) return res.json({ supported: false, sessions: [] });
    try {
      res.json({
        supported: true,
        replicaId: server.cluster.replicaId,
        sessions: await server.cluster.sessions.list(),
      });
    } catch (error) {
      sendAdminError(res, 503, 'CLUSTER_UNAVAILABLE', (error as Error).message);
    }
  });

  api.delete('/sessions/:id', (req, res) => {
    const id = req.params.id;
    if (!server.closeSession?.(id)) {
      return sendAdminError(res, 404, 'SESSION_NOT_FOUND', `No live session "${id}" (it may have closed already).`);
    }
    res.status(204).end();
  });

  api.get('/documents', (_req, res) => {
    const changes = monitor.documentChanges;
    const documents = server.documents.list().map((doc) => ({
      uri: doc.uri,
      name: doc.name,
      mimeType: doc.mimeType,
      size: doc.size ?? null,
      folder: doc.root ?? null,
      lastChangeAt: changes.get(doc.uri) ?? null,
    }));
    const folders = new Map<string, { root: string; count: number; lastChangeAt: number | null }>();
    for (const root of server.documents.folderRoots()) folders.set(root, { root, count: 0, lastChangeAt: null });
    for (const doc of documents) {
      if (!doc.folder) continue;
      const folder = folders.get(doc.folder) ?? { root: doc.folder, count: 0, lastChangeAt: null };
      folder.count += 1;
      folder.lastChangeAt = Math.max(folder.lastChangeAt ?? 0, doc.lastChangeAt ?? 0) || null;
      folders.set(doc.folder, folder);
    }
    res.json({
      /** Whether the server serves documents at all (the page hides its Documents panel otherwise). */
      served: documents.length > 0 || folders.size > 0,
      count: documents.length,
      lastChangeAt: Math.max(changes.get('*') ?? 0, ...documents.map((doc) => doc.lastChangeAt ?? 0)) || null,
      folders: [...folders.values()],
      documents,
      converterErrors: { count: monitor.converterErrorCount, recent: [...monitor.converterErrors].reverse() },
    });
  });

  api.get('/stats', (_req, res) => {
    const stats = monitor.stats;
    res.json({
      statistics: stats !== undefined,
      timeline: stats?.timeline() ?? [],
      tools: Object.fromEntries(
        server.getToolStates().map((state) => [state.tool.name, stats?.of(state.tool.name) ?? null]),
      ),
    });
  });

  api.get('/upstreams', (_req, res) => {
    res.json({ upstreams: (server.upstreams ?? []).map(upstreamJson) });
  });

  api.get('/events', (_req, res) => {
    monitor.feed.subscribe(res, { at: now(), statistics: monitor.stats !== undefined });
  });

  api.use((req, res) => {
    sendAdminError(res, 404, 'NOT_FOUND', `No admin route ${req.method} ${req.baseUrl}${req.path}.`);
  });
  const internal: ErrorRequestHandler = (error, _req, res, _next) => {
    console.error('mcp-toolkit admin API error:', error); // stderr; should not happen
    sendAdminError(res, 500, 'INTERNAL', 'The admin API failed on this request; see the server log.');
  };
  api.use(internal);
  return api;
}
