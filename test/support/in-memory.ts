import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { BaseMcpServer, type BaseMcpServerOptions } from '../../src/mcp/mcp-server.js';
// The root entry installs the Node document store for every server; this base comes from src/, so install it here.
import '../../src/mcp/server/node-documents.js';
import type { ServerInfo } from '../../src/mcp/server/server-info.js';
import { serverLifecycleOf } from '../../src/mcp/server/server-lifecycle.js';

/**
 * A BaseMcpServer for fast unit tests: each `connect()` serves one in-memory
 * connection through the SDK's `serveStdio` entry (the same era pinning as stdio).
 */
export class InMemoryServer extends BaseMcpServer {
  readonly #handles: Array<{ close(): Promise<void> }> = [];

  constructor(info: ServerInfo = { name: 'in-memory', version: '1.0.0' }, options: BaseMcpServerOptions = {}) {
    super(info, { logger: silentLogger(), ...options });
    serverLifecycleOf(this).onClose(
      async () => void (await Promise.all(this.#handles.map((handle) => handle.close()))),
    );
  }

  async start(): Promise<void> {
    await serverLifecycleOf(this).start('InMemoryServer.start()', () => undefined);
  }

  /** Connects a v2 client in `era` (legacy handshake or pinned 2026-07-28). */
  async connect(era: 'legacy' | 'modern', client = new Client({ name: 'unit', version: '1.0.0' }, clientOptions(era))) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    this.#handles.push(serveStdio((ctx) => this.createFreshMcpServer(ctx), { transport: serverSide }));
    await client.connect(clientSide);
    return client;
  }
}

/** v2 client options for an era, plus any extra options (capabilities etc.). */
export function clientOptions(era: 'legacy' | 'modern', extra: ConstructorParameters<typeof Client>[1] = {}) {
  return { ...extra, versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : ('legacy' as const) } };
}

/** A pino-shaped logger that drops everything (keeps test output clean). */
export function silentLogger() {
  const noop = () => {};
  const logger = { debug: noop, info: noop, warn: noop, error: noop, child: () => logger };
  return logger as never;
}
