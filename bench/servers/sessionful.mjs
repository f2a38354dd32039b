// The sessionful 2025-era HTTP wiring both raw SDKs document: express + JSON body, one
// server and one Streamable HTTP transport per session, kept in a map by session id.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import express from 'express';

/**
 * Serves `/mcp` on 127.0.0.1:0. `build(disabled)` makes a session's server and the handle
 * of its `echo` tool; `Transport` is the SDK's server transport class. A request for which
 * `modern(req)` is true goes to `modernHandler(req, res, body)` instead. `toggle()`
 * disables / re-enables `echo` on every session and then calls `onToggle()`.
 */
export async function serveSessions({ build, Transport, isInitializeRequest, modern, modernHandler, onToggle }) {
  const sessions = new Map(); // id -> { transport, first }
  let disabled = false;
  const app = express();
  app.use(express.json({ limit: '4mb' }));
  app.all('/mcp', async (req, res) => {
    if (modern?.(req)) return modernHandler(req, res, req.body);
    const id = req.headers['mcp-session-id'];
    const existing = id && sessions.get(id);
    if (existing) return existing.transport.handleRequest(req, res, req.body);
    if (id || !isInitializeRequest(req.body)) return res.status(id ? 404 : 400).end();
    const { server, first } = build(disabled);
    const transport = new Transport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sid) => sessions.set(sid, { transport, first }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(req, res, req.body);
  });
  const listener = http.createServer(app);
  await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return {
    port: listener.address().port,
    held: () => sessions.size,
    toggle: () => {
      disabled = !disabled;
      for (const { first } of sessions.values()) {
        if (disabled) first.disable();
        else first.enable();
      }
      onToggle?.(disabled);
    },
    stop: () => new Promise((resolve) => (listener.close(resolve), listener.closeAllConnections())),
  };
}
