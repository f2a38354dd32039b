import { Server, type ServerContext } from '@modelcontextprotocol/server';

type Register = (this: Server, method: string, ...rest: unknown[]) => void;

const sdkSetRequestHandler = Server.prototype.setRequestHandler as unknown as Register;
const sdkRemoveRequestHandler = Server.prototype.removeRequestHandler as unknown as (
  this: Server,
  method: string,
) => void;

/** The arguments (after the method) of the registration the SDK's `setRequestHandler` is running now. */
let registering: unknown[] | undefined;

/** Runs the SDK's own `setRequestHandler`, with its arguments readable through {@link registeringHandler} meanwhile. */
function install(server: Server, method: string, args: unknown[]): void {
  const outer = registering;
  registering = args;
  try {
    sdkSetRequestHandler.call(server, method, ...args);
  } finally {
    registering = outer;
  }
}

/**
 * While the SDK's `setRequestHandler` runs for a view (it calls the view's `_wrapHandler` before it
 * returns), the handler of a handler-only registration: the function the view registered, which the
 * SDK's closure handed to `_wrapHandler` calls after parsing the request. Undefined otherwise.
 */
export function registeringHandler(): ((request: unknown, ctx: ServerContext) => unknown) | undefined {
  const args = registering;
  return args?.length === 1 && typeof args[0] === 'function'
    ? (args[0] as (request: unknown, ctx: ServerContext) => unknown)
    : undefined;
}

/**
 * Spec methods whose handler a view may install on the first request for them; any other method
 * is installed at once, as the SDK does. A registration with schemas also marks its method in the
 * SDK's `_customSchemaRequestMethods`, which dispatch reads before the handler lookup: that mark
 * is made at registration, as the SDK makes it (or the registration is not deferred).
 */
const DEFERRABLE = new Set([
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'tasks/list',
  'tasks/result',
  'tasks/get',
  'tasks/cancel',
  'tasks/update',
]);

/**
 * The SDK server's private handler table (`Protocol._requestHandlers`, a `Map` from method to the
 * wrapped handler), with the view's registrations kept as their arguments until a lookup needs
 * one: then the SDK's own `setRequestHandler` runs with them, exactly as it would have at
 * registration. The SDK reads the table with `get` (dispatch, `_getRequestHandler`) and `has`
 * (`assertCanSetRequestHandler`) only.
 */
class DeferredHandlerTable extends Map<string, unknown> {
  /** Method -> the arguments of its `setRequestHandler` call after the method. */
  readonly pending = new Map<string, unknown[]>();

  constructor(
    private readonly server: Server,
    installed: Map<string, unknown>,
  ) {
    super(installed);
  }

  override get(method: string): unknown {
    if (!super.has(method)) this.install(method);
    return super.get(method);
  }

  override has(method: string): boolean {
    return super.has(method) || this.pending.has(method);
  }

  install(method: string): void {
    const args = this.pending.get(method);
    if (!args) return;
    this.pending.delete(method);
    install(this.server, method, args);
  }
}

/**
 * Makes `server`'s request handlers install on the first request for their method (call once, in
 * the constructor, after the SDK's own registrations). A view registers about fifteen handlers;
 * each costs the SDK's validation closure, its `_wrapHandler` closure and ours, with their
 * contexts: most of a legacy session's idle heap (heap snapshot, docs/performance.md W3), and work
 * on every 2026-07-28 request (a view per request) for handlers the request never calls.
 *
 * @returns false (and changes nothing) when this SDK version keeps no `_requestHandlers` map.
 */
export function deferRequestHandlers(server: Server): boolean {
  const parts = server as unknown as { _requestHandlers?: unknown };
  if (!(parts._requestHandlers instanceof Map) || parts._requestHandlers instanceof DeferredHandlerTable) return false;
  parts._requestHandlers = new DeferredHandlerTable(server, parts._requestHandlers as Map<string, unknown>);
  return true;
}

/** The table of `server` when its handlers are deferred. */
function tableOf(server: Server): DeferredHandlerTable | undefined {
  const table = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  return table instanceof DeferredHandlerTable ? table : undefined;
}

/**
 * `setRequestHandler` of a view: a handler-only registration of a {@link DEFERRABLE} method is
 * kept for its first request (the capability check still runs now, so a registration the SDK
 * would refuse throws here, as before); anything else goes to the SDK at once. A later
 * registration of the same method replaces the earlier one, installed or not, as in the SDK.
 */
export function setRequestHandlerDeferred(server: Server, method: string, rest: unknown[]): void {
  const table = tableOf(server);
  const parts = server as unknown as {
    _customSchemaRequestMethods?: unknown;
    assertRequestHandlerCapability(method: string): void;
  };
  const handlerOnly = rest.length === 1 && typeof rest[0] === 'function';
  const withSchemas =
    rest.length === 2 &&
    typeof rest[0] === 'object' &&
    rest[0] !== null &&
    typeof rest[1] === 'function' &&
    parts._customSchemaRequestMethods instanceof Set;
  if (!table || !DEFERRABLE.has(method) || !(handlerOnly || withSchemas)) {
    table?.pending.delete(method);
    install(server, method, rest);
    return;
  }
  parts.assertRequestHandlerCapability(method);
  const custom = parts._customSchemaRequestMethods as Set<string> | undefined;
  if (withSchemas) custom?.add(method);
  else custom?.delete(method);
  Map.prototype.delete.call(table, method);
  table.pending.set(method, rest);
}

/** `removeRequestHandler` of a view: forgets a registration that was not installed yet, too. */
export function removeRequestHandlerDeferred(server: Server, method: string): void {
  tableOf(server)?.pending.delete(method);
  sdkRemoveRequestHandler.call(server, method);
}
