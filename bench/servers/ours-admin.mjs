// mcp-toolkit with the admin router mounted and call statistics on (bench/admin-overhead.mjs):
// the same servers as ours.mjs, plus adminRouter (HTTP: on the server's app; stdio: on an express
// app that is never listened on, so only the statistics listener runs).
import express from 'express';
import { adminRouter } from '../../dist/public/admin.js';
import * as ours from './ours.mjs';

const TOKEN = 'bench-admin-token-0123456789';

export function startHttp(config) {
  return ours.startHttp({
    ...config,
    beforeStart: (server) => server.app.use('/admin', adminRouter(server, { token: TOKEN })),
  });
}

export function startStdio(config) {
  return ours.startStdio({
    ...config,
    beforeStart: (server) => express().use('/admin', adminRouter(server, { token: TOKEN })),
  });
}
