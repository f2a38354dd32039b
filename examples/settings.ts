/**
 * Settings tour: persisted tool state and the admin router on an HttpMcpServer (docs/settings.md).
 * Run: npm run build:examples && node .tmp/examples/examples/settings.js
 * then open the settings URL it prints on stderr.
 */
import { randomBytes } from 'node:crypto';
import express from 'express';
import { z } from 'zod';
import { HttpMcpServer, ToolPackage, defineTool } from '../src/index.js';
import { adminRouter } from '../src/public/admin.js';
import { FileToolStateStore, type ToolStateSnapshot, type ToolStateStore } from '../src/public/state.js';

// #region state
const server = new HttpMcpServer(
  { name: 'settings-example', version: '1.0.0' },
  { port: 3000, toolState: new FileToolStateStore('./tool-state.json') },
);
server.registerTool(
  new ToolPackage(
    [
      defineTool({
        name: 'add',
        description: 'Adds two numbers.',
        inputSchema: z.object({ a: z.number(), b: z.number() }),
        execute: ({ a, b }) => String(a + b),
      }),
    ],
    { name: 'math' },
  ),
);
server.setDisabledTools(['add']); // the default, used until a state was saved
// #endregion state

// #region overrides
// Clients list and call `add` as `sum`, with this description; the app API keeps the name `add`.
server.setToolOverride('add', { name: 'sum', description: 'Adds two numbers a and b.' });
// #endregion overrides

// #region mount
const token = process.env.ADMIN_TOKEN ?? randomBytes(32).toString('base64url');
server.app.use('/admin', adminRouter(server, { token }));
await server.start();
process.stderr.write(`settings: http://127.0.0.1:${server.address.port}/admin/#token=${token}\n`);
// #endregion mount

// #region own-app
const app = express();
app.use(
  '/ops/tools',
  adminRouter(server, {
    // Your own check instead of a token, e.g. a header set by your authenticating proxy.
    authenticate: (request) => request.headers['x-ops-user'] === 'alice',
    allowedHosts: ['localhost', '127.0.0.1', 'ops.internal'],
  }),
);
app.listen(4000, '127.0.0.1');
// #endregion own-app

// #region custom-store
/** A store kept in your app's database (here: a Map standing in for it). */
class DatabaseToolStateStore implements ToolStateStore {
  #row?: ToolStateSnapshot;
  async load() {
    return this.#row; // undefined: nothing saved yet, the server keeps and saves its defaults
  }
  async save(disabled: readonly string[]) {
    this.#row = { disabled: [...disabled].sort(), version: (this.#row?.version ?? 0) + 1, savedAt: Date.now() };
    return this.#row;
  }
}
// #endregion custom-store
void DatabaseToolStateStore;
