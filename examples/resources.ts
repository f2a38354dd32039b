/**
 * Resources tour: every feature of docs/resources.md in one runnable server.
 * Run: npm run build:examples && node .tmp/examples/examples/resources.js
 * (or compile with tsc); talk to it over stdio with any MCP client.
 */
import { ResourceNotFoundError } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { StdioMcpServer, defineTool, embeddedResource, type ResourceContext } from '../src/index.js';

const server = new StdioMcpServer({ name: 'resources-example', version: '1.0.0' });

// #region resource
let status = { healthy: true, checkedAt: new Date().toISOString() };

server.registerResource({
  uri: 'status://app',
  name: 'app-status',
  title: 'Application status',
  description: 'Health of the application, refreshed by the app',
  mimeType: 'application/json',
  // Runs on every resources/read, so clients always see the current value.
  read: () => JSON.stringify(status),
});
// #endregion resource

// #region contents
server.registerResource({
  uri: 'assets://pixel.gif',
  name: 'pixel',
  mimeType: 'image/gif',
  // Bytes (Uint8Array or Buffer) are sent base64-encoded as a blob.
  read: () => Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'),
});

server.registerResource({
  uri: 'logs://today',
  name: 'logs',
  mimeType: 'text/plain',
  // Several items in one read; each gets the resource's URI and MIME type unless it names its own.
  read: async (_uri, context: ResourceContext) => {
    context.log.debug('reading logs', { era: context.era });
    return [
      { uri: 'logs://today/app', text: 'app started' },
      { uri: 'logs://today/db', text: 'db connected' },
    ];
  },
});
// #endregion contents

// #region template
const notes = new Map([
  ['inbox', new Map([['todo', 'buy milk']])],
  ['archive', new Map([['2024', 'old plans']])],
]);

server.registerResourceTemplate({
  uriTemplate: 'notes://{folder}/{name}',
  name: 'notes',
  title: 'Notes',
  mimeType: 'text/markdown',
  complete: {
    // A fixed list completes by prefix; a function sees the variables filled in so far.
    folder: [...notes.keys()],
    name: (value, context) =>
      [...(notes.get(context.arguments.folder ?? '')?.keys() ?? [])].filter((name) => name.startsWith(value)),
  },
  // Optional: concrete URIs to show in resources/list.
  list: () =>
    [...notes].flatMap(([folder, entries]) =>
      [...entries.keys()].map((name) => ({ uri: `notes://${folder}/${name}`, name: `${folder}/${name}` })),
    ),
  // Variables arrive percent-decoded: notes://inbox/my%20list -> { folder: 'inbox', name: 'my list' }.
  read: (uri, { folder, name }) => {
    const text = notes.get(String(folder))?.get(String(name));
    if (text === undefined) throw new ResourceNotFoundError(uri);
    return `# ${name}\n\n${text}`;
  },
});
// #endregion template

// #region embed
server.registerTool(
  defineTool({
    name: 'get_note',
    description: 'Returns a note as an embedded resource',
    inputSchema: z.object({ folder: z.string(), name: z.string() }),
    execute: async ({ folder, name }, context) => {
      const [note] = await server.readResource(`notes://${folder}/${name}`, context);
      return note ? [embeddedResource(note)] : 'No such note.';
    },
  }),
);
// #endregion embed

// #region documents
// Files and folders are resources too, listed before everything above (see docs/documents.md).
server.registerFolder(new URL('../docs', import.meta.url).pathname);
// #endregion documents

await server.start();

// #region subscriptions
// Tell the clients subscribed to status://app (and only them) to read it again.
function setHealthy(healthy: boolean): void {
  status = { healthy, checkedAt: new Date().toISOString() };
  server.sendResourceUpdated('status://app');
}

setInterval(() => setHealthy(Math.random() > 0.1), 60_000).unref();
// #endregion subscriptions

// #region runtime
// After start(): each call sends one notifications/resources/list_changed to every client.
server.registerResource({ uri: 'memo://scratch', name: 'scratch', read: () => 'temporary' });
server.removeResource('memo://scratch');
// #endregion runtime
