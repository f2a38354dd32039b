// Requests and responses of an HttpMcpServer are born with express's prototypes (transports/http/express-born-requests.ts),
// so express's per-request Object.setPrototypeOf changes nothing and their hidden classes stay shared (docs/performance.md).
import http from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { expressBornRequests } from '../../src/mcp/transports/http/express-born-requests.js';

describe('express-born requests', () => {
  it('gives the Node server classes whose instances have the prototype chain express gives them', async () => {
    const app = express();
    const classes = expressBornRequests(app);
    expect(classes).toBeDefined();
    const seen: Array<{ req: boolean; res: boolean; ctor: boolean; instance: boolean; body: string }> = [];
    app.post('/x', express.text({ type: '*/*' }), (req, res) => {
      seen.push({
        req: Object.getPrototypeOf(req) === app.request,
        res: Object.getPrototypeOf(res) === app.response,
        ctor: req.constructor === http.IncomingMessage && res.constructor === http.ServerResponse,
        instance: req instanceof http.IncomingMessage && res instanceof http.ServerResponse,
        body: req.body as string,
      });
      res.status(201).json({ ok: req.get('x-probe') });
    });
    const server = http.createServer(classes!, app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const response = await fetch(`http://127.0.0.1:${port}/x`, {
        method: 'POST',
        headers: { 'x-probe': 'p' },
        body: 'hi',
      });
      expect([response.status, await response.json()]).toEqual([201, { ok: 'p' }]);
      expect(seen).toEqual([{ req: true, res: true, ctor: true, instance: true, body: 'hi' }]);
    } finally {
      server.close();
    }
  });

  it('leaves an app without express request/response prototypes to the plain classes', () => {
    const app = express();
    (app as unknown as { request: unknown }).request = {};
    expect(expressBornRequests(app)).toBeUndefined();
  });
});
