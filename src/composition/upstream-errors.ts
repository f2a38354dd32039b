import { UpstreamError } from '../errors.js';
import type { ClientModule } from './client-loader.js';
import { redactValue } from './upstream-config.js';

/** The SDK formats a JSON-RPC error as `MCP error <code>: <message>`; the caller gets the upstream's own message. */
const SDK_PREFIX = /^MCP error -?\d+: /;

/**
 * What a failed forwarded call becomes (and whether it shows the connection is gone): the upstream's JSON-RPC error as `UPSTREAM_PROTOCOL_ERROR`
 * with the same `rpcCode`, message and `data` (a forwarded `tools/call` answers with that error);
 * a closed connection, a failed send or a timeout as `UPSTREAM_UNAVAILABLE` saying the call may or
 * may not have run; anything else (e.g. a result the client rejected) as `UPSTREAM_UNAVAILABLE` too.
 * `redact` blanks the configuration's secrets (see `secretRedactor`) out of the message and out of every
 * string of `data`: an upstream may quote a credential in its error, and the caller gets both as they are.
 */
export function translateUpstreamError(
  module: ClientModule,
  upstream: string,
  tool: string,
  error: unknown,
  redact: (text: string) => string,
): { error: UpstreamError; connectionLost: boolean } {
  if (error instanceof UpstreamError) return { error, connectionLost: false };
  if (module.ProtocolError.isInstance(error)) {
    const message = redact(error.message.replace(SDK_PREFIX, ''));
    const data = error.data === undefined ? undefined : redactValue(error.data, redact);
    const options = { cause: error, rpcCode: error.code, data };
    return { error: new UpstreamError('UPSTREAM_PROTOCOL_ERROR', upstream, message, options), connectionLost: false };
  }
  const code = module.SdkError.isInstance(error) ? error.code : undefined;
  const { SdkErrorCode } = module;
  let why: string;
  let connectionLost = false;
  if (code === SdkErrorCode.ConnectionClosed || code === SdkErrorCode.NotConnected) {
    why = `closed its connection during the call to "${tool}" (it may or may not have completed); it is being reconnected`;
    connectionLost = true;
  } else if (code === SdkErrorCode.RequestTimeout) {
    why = `did not answer the call to "${tool}" in time`;
  } else if (code === SdkErrorCode.SendFailed || error instanceof TypeError) {
    why = `could not be reached for the call to "${tool}"; it is being reconnected`;
    connectionLost = true;
  } else {
    why = `failed the call to "${tool}": ${error instanceof Error ? error.message : String(error)}`;
  }
  const unavailable = new UpstreamError('UPSTREAM_UNAVAILABLE', upstream, redact(`Upstream "${upstream}" ${why}.`), {
    cause: error,
  });
  return { error: unavailable, connectionLost };
}
