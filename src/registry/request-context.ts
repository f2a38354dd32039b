import type { ToolContext } from './tool-context.js';

/**
 * What a prompt's `load`, a resource's `read`, a template's `list`/`read` and a completion
 * function receive about the request they serve (`prompts/get`, `resources/read`,
 * `resources/list`, `completion/complete`): `signal` (aborted when the client cancels or the
 * connection closes), `requestId`, `sessionId` (legacy HTTP), `authInfo`, `clientInfo`,
 * `clientCapabilities`, `era` (`legacy` | `modern`) and `log` (MCP logging to the client).
 * Fields the transport does not know are `undefined`. It is the part of `ToolContext` that is
 * not specific to tool calls.
 */
export type RequestContext = Pick<
  ToolContext,
  'signal' | 'requestId' | 'sessionId' | 'authInfo' | 'clientInfo' | 'clientCapabilities' | 'era' | 'log'
>;
