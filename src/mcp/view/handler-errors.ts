import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError as SdkResourceNotFoundError,
} from '@modelcontextprotocol/server';
import { ResourceNotFoundError, ToolkitError, UserError } from '../../errors.js';

/**
 * Maps an error thrown by app code behind `prompts/get`, `resources/read` or
 * `completion/complete` onto the JSON-RPC error sent to the client:
 * - a `ProtocolError` passes through unchanged,
 * - `ResourceNotFoundError` -> "Resource not found" (the SDK sends -32602 on every revision),
 * - `UserError` -> -32602 with its message verbatim (meant for the caller),
 * - another `ToolkitError` (e.g. `DocumentReadError`) -> -32603 with its message verbatim,
 * - anything else -> -32603 `<what> failed: <message>`.
 *
 * @param what - names the failing piece for the message, e.g. `Prompt "review"`.
 */
export function toProtocolError(error: unknown, what: string): Error {
  if (error instanceof ProtocolError) return error;
  if (error instanceof ResourceNotFoundError) return new SdkResourceNotFoundError(error.uri, error.message);
  if (error instanceof UserError) return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
  if (error instanceof ToolkitError) return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  const message = error instanceof Error ? error.message || error.name : String(error);
  return new ProtocolError(ProtocolErrorCode.InternalError, `${what} failed: ${message}`);
}
