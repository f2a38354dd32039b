import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import {
  InMemoryTransport,
  type AuthInfo,
  type Implementation,
  type Server,
  type Transport,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { authInfoForPrincipal, type PrincipalInit } from '../auth/principal.js';
import type { BaseMcpServer } from '../mcp/mcp-server.js';
import { viewFactoryOf } from '../mcp/server/view-factory.js';

/** Options of {@link connectInMemory}. */
export interface ConnectInMemoryOptions {
  /**
   * Protocol era the client speaks: `'legacy'` (the `initialize` handshake of 2025-11-25 and
   * earlier, as Claude Desktop and the v1 SDK do) or `'2026-07-28'` (stateless requests with
   * `_meta`; list changes arrive only on a `client.listen(...)` stream). Default `'legacy'`.
   */
  era?: 'legacy' | '2026-07-28';
  /** The client's `clientInfo`. Default `{ name: 'mcp-toolkit-test', version: '0.0.0' }`. */
  clientInfo?: Implementation;
  /**
   * More options for the SDK `Client` (e.g. `capabilities: { elicitation: {} }` to answer
   * `context.elicit()`); `versionNegotiation` is set from `era`.
   */
  clientOptions?: ClientOptions;
  /**
   * Connect as this principal, as if it had sent a verified OAuth access token: every request
   * carries its `AuthInfo` (`context.authInfo`, `principalOf(context.authInfo)`), so
   * `requiredScopes` and `canAccess` of tools, prompts, resources and templates apply to it, and
   * `sessionTools` see it. Default: no authentication (`authInfo` undefined).
   */
  auth?: PrincipalInit;
}

/**
 * Emits `sessionCreated` for `view` now and `sessionClosed` once when it closes, as a stdio
 * connection does: reason `closed` when the client side closed it (`close()`, `client.close()`),
 * `shutdown` when the server closed it (`server.stop()`).
 */
function reportSession(server: BaseMcpServer, view: Server, clientSide: Transport): Server {
  let clientClosed = false;
  const closeClient = clientSide.close.bind(clientSide);
  clientSide.close = () => ((clientClosed = true), closeClient());
  server.events.safeEmit('sessionCreated', { transport: 'memory' });
  const previous = view.onclose;
  view.onclose = () => {
    previous?.();
    server.events.safeEmit('sessionClosed', { transport: 'memory', reason: clientClosed ? 'closed' : 'shutdown' });
  };
  return view;
}

/**
 * Hands `authInfo` to every message `view` receives, as an HTTP transport does for a verified
 * token (the handlers read it as `ctx.http.authInfo`). `serveStdio` passes no per-message extra
 * to its connection, so it is added where the view's transport delivers.
 */
function withAuthInfo(view: Server, authInfo: AuthInfo): Server {
  const connect = view.connect.bind(view);
  view.connect = async (transport) => {
    await connect(transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => deliver?.(message, { ...extra, authInfo });
  };
  return view;
}

/** A connected client and how to end the connection. */
export interface InMemoryConnection {
  /** The official SDK v2 client (`@modelcontextprotocol/client`), connected and past its opening. */
  readonly client: Client;
  /**
   * Closes the client and the server side of this connection (its view leaves the server's
   * live views; per-session tools are disposed). Idempotent. The server itself keeps running:
   * stop it with `server.stop()`.
   */
  close(): Promise<void>;
}

/**
 * Connects an official MCP SDK v2 client to `server` over the SDK's in-memory transport, the
 * way a stdio client would connect (same view, same era pinning through the SDK's `serveStdio`),
 * without starting the server's own transport. For app tests: fast, no process, no port.
 * `server.events` sees the connection as a real one: `sessionCreated` when it opens and one
 * `sessionClosed` when it ends (reason `closed` after {@link InMemoryConnection.close} or
 * `client.close()`, `shutdown` after `server.stop()`), both with `transport: 'memory'`.
 *
 * Uses `@modelcontextprotocol/client` (a dependency of mcp-toolkit).
 * Import it from `mcp-toolkit/testing`, so the main entry never loads the client SDK.
 *
 * ```ts
 * const { client, close } = await connectInMemory(server, { era: '2026-07-28' });
 * // or as a signed-in user: { auth: { subject: 'alice', scopes: ['notes:write'] } }
 * const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
 * await close();
 * ```
 * @throws TypeError when `server` is not a toolkit server.
 * @throws InvalidOptionsError for a bad `auth` (not an object, an unknown key, `scopes` not a string array, ...).
 * @throws whatever the client's opening throws (e.g. a protocol version the server refuses).
 */
export async function connectInMemory(
  server: BaseMcpServer,
  options: ConnectInMemoryOptions = {},
): Promise<InMemoryConnection> {
  const createView = viewFactoryOf(server);
  const authInfo = options.auth && authInfoForPrincipal(options.auth);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(
    (context) => {
      const view = createView(authInfo ? { ...context, authInfo } : context);
      return reportSession(server, authInfo ? withAuthInfo(view, authInfo) : view, clientSide);
    },
    { transport: serverSide },
  );
  const era = options.era ?? 'legacy';
  const client = new Client(options.clientInfo ?? { name: 'mcp-toolkit-test', version: '0.0.0' }, {
    ...options.clientOptions,
    versionNegotiation: { mode: era === '2026-07-28' ? { pin: '2026-07-28' } : 'legacy' },
  });
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= Promise.allSettled([client.close(), served.close()]).then(() => undefined));
  try {
    await client.connect(clientSide);
  } catch (error) {
    await close();
    throw error;
  }
  return { client, close };
}
