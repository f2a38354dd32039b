/**
 * Transports as functions of a server (docs/transports.md): an app's own `BaseMcpServer` subclass
 * served over stdio or Streamable HTTP by `serveStdio` / `serveHttp`, and a transport of its own.
 * Run: npm run build:examples && node .tmp/examples/examples/transports.js [--http]
 */
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio as sdkServeStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { BaseMcpServer, defineTool } from '../src/index.js';
import { serveHttp, serveStdio, serverLifecycleOf } from '../src/public/transports.js';

// #region own-server
class NotesServer extends BaseMcpServer {
  readonly #notes: string[] = [];
  readonly #http: boolean;

  constructor(options: { http: boolean }) {
    super({ name: 'notes', version: '1.0.0' });
    this.#http = options.http;
    this.registerTool(
      defineTool({
        name: 'add_note',
        inputSchema: z.object({ text: z.string() }),
        execute: ({ text }) => `${this.#notes.push(text)} notes`,
      }),
    );
  }

  async start(): Promise<void> {
    if (!this.#http) {
      await serveStdio(this); // process.stdin / process.stdout; stdin closing stops the server
      return;
    }
    const serving = serveHttp(this, { port: 3000 }); // nothing listens yet
    serving.app.get('/notes', (_request, response) => void response.json(this.#notes)); // runs before /mcp
    const { url } = await serving.listen();
    console.error(`notes server on ${url}`);
  }

  protected override async onStop(): Promise<void> {
    console.error(`stopping with ${this.#notes.length} notes`); // before the transport closes
  }
}
// #endregion own-server

// #region own-transport
/** One in-process client over the SDK's in-memory transport (say, an agent embedded in the app). */
class EmbeddedServer extends BaseMcpServer {
  clientSide?: InMemoryTransport;

  async start(): Promise<void> {
    const lifecycle = serverLifecycleOf(this);
    // Throws ServerStateError when already started or stopped; loads the toolState store first.
    this.clientSide = await lifecycle.start('EmbeddedServer.start()', () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const served = sdkServeStdio((context) => this.createFreshMcpServer(context), { transport: serverSide });
      lifecycle.onClose(() => served.close()); // run by stop(), after onStop()
      return clientSide;
    });
  }
}
// #endregion own-transport

export { EmbeddedServer };

const server = new NotesServer({ http: process.argv.includes('--http') });
await server.start();
process.once('SIGINT', () => void server.stop());
