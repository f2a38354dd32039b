import type { ToolContext } from './tool-context.js';

/**
 * What a prompt's `load`, a resource's `read`, a template's `list`/`read` and a completion
 * function receive about the request they serve (`prompts/get`, `resources/read`,
 * `resources/list`, `completion/complete`): `signal` (aborted when the client cancels or the
 * connection closes), `requestId`, `sessionId` (legacy HTTP), `authInfo`, `principal`, `request`
 * (HTTP only), `clientInfo`, `clientCapabilities`, `era` (`legacy` | `modern`) and `log` (MCP
 * logging to the client). Fields the transport does not know are `undefined`. It is the part of
 * `ToolContext` that is not specific to tool calls.
 */
export type RequestContext = Pick<
  ToolContext,
  | 'signal'
  | 'requestId'
  | 'sessionId'
  | 'authInfo'
  | 'principal'
  | 'request'
  | 'clientInfo'
  | 'clientCapabilities'
  | 'era'
  | 'log'
>;

/** The read-only part of a WHATWG `Headers` object (names are case-insensitive). */
export interface ReadonlyHeaders extends Iterable<[string, string]> {
  /** The header's value (several joined with `, `), or null. */
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(callback: (value: string, name: string) => void): void;
  entries(): IterableIterator<[string, string]>;
  keys(): IterableIterator<string>;
  values(): IterableIterator<string>;
}

/**
 * The HTTP request that carried an MCP request (Streamable HTTP only; undefined on stdio), read-only:
 * changing it cannot change what other parts of the server see.
 */
export interface HttpRequestInfo {
  /** The request's headers (read-only). */
  readonly headers: ReadonlyHeaders;
  /** `POST` (or `GET` / `DELETE` for the legacy session routes). */
  readonly method: string;
  /** The request URL as the server received it. */
  readonly url: string;
  /** The peer's IP address (the TCP connection's; a proxy in front shows as the proxy), when known. */
  readonly remoteAddress: string | undefined;
}
