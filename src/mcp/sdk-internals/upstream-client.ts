import type { CallToolResult } from '@modelcontextprotocol/server';

type Client = import('@modelcontextprotocol/client').Client;
type RequestOptions = NonNullable<Parameters<Client['callTool']>[1]>;
type Outcome = { ok: true; value: unknown } | { ok: false; reason: string; message?: string };
type StandardResult = { value: unknown } | { issues: { message: string }[] };
interface ResultSchema {
  '~standard': { version: 1; vendor: string; validate(value: unknown): StandardResult };
}

/** The parts of the v2 client's `Protocol` (2.4) this module uses. */
interface ClientInternals {
  _wireCodec?: () => { validateResult(method: string, value: unknown): Outcome };
  _setupTimeout?: (messageId: number, timeout: number, ...rest: unknown[]) => void;
  _cleanupTimeout?: (messageId: number) => void;
}

/** A `timeout` at or above this is "none": the caller keeps its own timer (Node's longest delay). */
export const NO_SDK_TIMEOUT = 2 ** 31 - 1;

const schemas = new WeakMap<object, ResultSchema>();

/**
 * The result schema the client's `callTool()` would use, built once per wire codec. The SDK builds
 * it per request and first probes it with `undefined`, which fails and turns a zod error into a
 * string: about 8% of a call (docs/performance.md, #27). Same validation, same messages.
 */
function toolResultSchema(codec: NonNullable<ReturnType<NonNullable<ClientInternals['_wireCodec']>>>): ResultSchema {
  let schema = schemas.get(codec);
  if (!schema) {
    const validate = (value: unknown): StandardResult => {
      const outcome = codec.validateResult('tools/call', value);
      if (outcome.ok) return { value: outcome.value };
      return { issues: [{ message: outcome.reason === 'invalid' ? outcome.message! : 'not-in-era: tools/call' }] };
    };
    schema = { '~standard': { version: 1, vendor: 'mcp-wire-codec', validate } };
    schemas.set(codec, schema);
  }
  return schema;
}

/** Whether `client` has the internals {@link upstreamCallTool} and {@link skipUnboundedTimers} use. */
export function upstreamClientShortcutsApply(client: object): boolean {
  const internals = client as ClientInternals;
  return (
    typeof internals._wireCodec === 'function' &&
    typeof internals._wireCodec.call(client)?.validateResult === 'function' &&
    typeof internals._setupTimeout === 'function' &&
    typeof internals._cleanupTimeout === 'function'
  );
}

/**
 * `client.callTool(params, options)` for a caller that checks the result's `structuredContent`
 * itself and sends no `Mcp-Param-*` headers (stdio, or the handshake era): the same request and
 * result validation, without the per-call schema probe nor the output-schema cache lookup.
 * Falls back to `callTool` on a client without these internals.
 */
export function upstreamCallTool(
  client: Client,
  params: Parameters<Client['callTool']>[0],
  options: RequestOptions,
): Promise<CallToolResult> {
  const codec = (client as unknown as ClientInternals)._wireCodec?.();
  if (!codec || typeof codec.validateResult !== 'function') {
    return client.callTool(params, options) as Promise<CallToolResult>;
  }
  return client.request(
    { method: 'tools/call', params },
    toolResultSchema(codec) as never,
    options,
  ) as Promise<CallToolResult>;
}

/**
 * Requests sent with `timeout: NO_SDK_TIMEOUT` arm no SDK timer: the SDK sets (and clears) one per
 * request even then, about 7% of a forwarded call; the caller times the request itself. Other
 * requests keep theirs. Returns whether it applied (a client without `_setupTimeout` is left as it is).
 */
export function skipUnboundedTimers(client: Client): boolean {
  const internals = client as unknown as ClientInternals;
  const setup = internals._setupTimeout;
  if (typeof setup !== 'function' || typeof internals._cleanupTimeout !== 'function') return false;
  internals._setupTimeout = function (this: unknown, messageId, timeout, ...rest) {
    if (timeout >= NO_SDK_TIMEOUT) return;
    setup.call(this, messageId, timeout, ...rest);
  };
  return true;
}
