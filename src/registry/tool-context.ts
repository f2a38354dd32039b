import type {
  AuthInfo,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
  LoggingLevel,
  StandardSchemaV1,
} from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.js';
import type { HttpRequestInfo } from './request-context.js';

/** Options shared by `elicit`, `sample` and `listRoots`. */
export interface InputRequestOptions {
  /**
   * Name of this request on 2026-07-28, where it travels in an `input_required` result
   * (its key in `inputRequests`, and the key the client answers under in `inputResponses`).
   * Default: `elicit-<n>` / `sample-<n>` / `roots-<n>`, `n` counting this call's requests.
   * Give stable, distinct names when a client expects particular ones.
   */
  key?: string;
}

/** What `context.elicit()` asks the user: a message and a flat object schema (zod or JSON Schema). */
export interface ElicitOptions extends InputRequestOptions {
  message: string;
  requestedSchema: ElicitRequestFormParams['requestedSchema'] | StandardSchemaV1;
}

/**
 * What `context.elicitUrl()` asks (MCP 2025-11-25 "Elicitation", URL mode): the user is sent to `url`
 * (an interaction that must not pass through the client, such as an OAuth authorization or a payment)
 * with `message` saying why.
 */
export interface ElicitUrlOptions extends InputRequestOptions {
  message: string;
  /** The absolute URL the client offers the user to open. */
  url: string;
  /**
   * The id the client and `completeUrlElicitation()` refer to it by (handshake era). Default: a
   * random UUID. Not sent on 2026-07-28, where the request travels in an `input_required` round.
   */
  elicitationId?: string;
}

/** Progress of a long tool call; `total` and `message` are optional (MCP `notifications/progress`). */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/** A logger that sends MCP log notifications to the calling client, honouring its log level. */
export interface ToolLogger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/**
 * What a tool's `execute(args, context)` receives about the call it serves.
 * Built per call by the server view; fields that the transport does not know are `undefined`.
 * `signal`, `log`, `reportProgress` and the input methods (`elicit`, `elicitUrl`, ...) are accessors made on first
 * read (most tools use none of them, and an `AbortSignal` alone costs microseconds per call): read
 * or destructure them from the context (`const { signal, elicit } = context` works, and a method
 * stays bound); an object spread (`{ ...context }`) copies the plain fields, not these accessors.
 */
export interface ToolContext {
  /** Fires when the client cancels the call or its connection closes; `signal.reason` tells which. */
  readonly signal: AbortSignal;
  /** JSON-RPC id of the `tools/call` request. */
  readonly requestId: string | number;
  /** Legacy HTTP session id (`Mcp-Session-Id`), when there is one. */
  readonly sessionId?: string;
  /** Auth info produced by the HTTP `authenticate` hook, when configured. */
  readonly authInfo?: AuthInfo;
  /**
   * Who is calling: the verified token's principal (`sub`, client, scopes, claims) with OAuth, or
   * the `authenticate` hook's `clientId` and `scopes` (no claims); undefined when unauthenticated.
   */
  readonly principal?: Principal;
  /** The HTTP request that carried the call (headers, method, URL, peer address), read-only; undefined on stdio. */
  readonly request?: HttpRequestInfo;
  /** The calling client's name and version, when the client sent them. */
  readonly clientInfo?: Implementation;
  /** The calling client's declared capabilities. */
  readonly clientCapabilities?: ClientCapabilities;
  /** Protocol era of the call: `legacy` (2025-11-25 and earlier) or `modern` (2026-07-28). */
  readonly era: 'legacy' | 'modern';
  /** Sends `notifications/progress`; a no-op when the client gave no progress token. */
  reportProgress(progress: ToolProgress): Promise<void>;
  /** Logs to the client (MCP logging); dropped below the client's chosen level. */
  readonly log: ToolLogger;
  /**
   * Asks the user for input through the client (MCP elicitation, form mode). Resolves
   * with `{ action: 'accept' | 'decline' | 'cancel', content? }`. On the legacy era this
   * is a server-to-client request; on 2026-07-28 the call returns an `input_required`
   * result and `execute` runs again with the answer (so code before `elicit` must be
   * safe to repeat). Requests started together (`Promise.all([elicit(a), sample(b)])`)
   * are asked together, in one `input_required` result. An answer of the wrong shape
   * counts as no answer (asked again). Throws `InputUnavailableError` when the client
   * lacks `elicitation`.
   */
  elicit(options: ElicitOptions): Promise<ElicitResult>;
  /**
   * Asks the client to send the user to a URL (MCP elicitation, URL mode: `elicitation/create`
   * with `mode: 'url'`, `url`, `elicitationId`, `message`). Resolves with `{ action }`: `accept`
   * means the user agreed to open it, not that the interaction there is over (the server learns
   * that out of band; see {@link ToolContext.completeUrlElicitation}). Same era behaviour as
   * {@link ToolContext.elicit} (on 2026-07-28 an `input_required` round). Throws
   * `InputUnavailableError` (capability `elicitation.url`) when the client lacks `elicitation: { url: {} }`.
   */
  elicitUrl(options: ElicitUrlOptions): Promise<ElicitResult>;
  /**
   * Tells the client that the out-of-band interaction of a URL elicitation finished
   * (`notifications/elicitation/complete` with `elicitationId`, handshake era), so it may retry
   * what waited for it. It goes on the caller's connection or session, so it may be called after
   * the tool returned. A no-op on 2026-07-28 (no such notification: the client retries the round)
   * and when the client lacks `elicitation.url`.
   */
  completeUrlElicitation(elicitationId: string): Promise<void>;
  /**
   * Asks the client's model for a completion (MCP sampling, `sampling/createMessage`),
   * with the same era behaviour as {@link ToolContext.elicit}. Throws
   * `InputUnavailableError` when the client lacks `sampling`.
   */
  sample(params: CreateMessageRequestParams, options?: InputRequestOptions): Promise<CreateMessageResult>;
  /**
   * Asks the client for its roots (MCP `roots/list`: the directories or files it exposes),
   * with the same era behaviour as {@link ToolContext.elicit}. Throws
   * `InputUnavailableError` when the client lacks `roots`.
   */
  listRoots(options?: InputRequestOptions): Promise<ListRootsResult>;
}

export type { LoggingLevel };
