/**
 * The toolkit's error hierarchy. Every error the toolkit throws on purpose is a
 * {@link ToolkitError} with a stable {@link ToolkitErrorCode}, so apps can branch on
 * `error.code` instead of parsing messages. Protocol-facing code maps these onto
 * JSON-RPC errors (see `src/mcp/view/handler-errors.ts`).
 */

/** Stable machine-readable codes carried by every {@link ToolkitError}. */
export type ToolkitErrorCode =
  | 'DUPLICATE_TOOL'
  | 'INVALID_TOOL'
  | 'DUPLICATE_PROMPT'
  | 'INVALID_PROMPT'
  | 'DUPLICATE_RESOURCE'
  | 'INVALID_RESOURCE'
  | 'USER_ERROR'
  | 'NOT_A_FILE'
  | 'NOT_A_DIRECTORY'
  | 'PATH_OUTSIDE_ROOT'
  | 'RESOURCE_NOT_FOUND'
  | 'RESOURCE_TOO_LARGE'
  | 'CONVERSION_FAILED'
  | 'CONVERSION_LIMIT'
  | 'SERVER_STATE'
  | 'UNAUTHENTICATED'
  | 'TOOL_CALL_ABORTED'
  | 'INPUT_UNAVAILABLE'
  | 'TOOL_STATE'
  | 'TOOL_STATE_LOCKED'
  | 'CLUSTER_UNAVAILABLE'
  | 'TASK_NOT_FOUND'
  | 'TASK_LIMIT'
  /** Malformed task parameters or a foreign task cursor (see {@link TaskError}). */
  | 'INVALID_ARGUMENTS'
  /** An options object with a key its owner does not know, or an option value of the wrong type or range (see {@link InvalidOptionsError}). */
  | 'INVALID_OPTIONS'
  | 'MISSING_DEPENDENCY'
  | 'INVALID_OPENAPI'
  /** A request refused by a rate limit (see {@link RateLimitedError}). */
  | 'RATE_LIMITED'
  /** An upstream server's configuration is unusable (see {@link UpstreamError}). */
  | 'INVALID_UPSTREAM'
  /** An upstream server is not connected, or its connection ended during a call. */
  | 'UPSTREAM_UNAVAILABLE'
  /** An upstream server answered a forwarded request with a JSON-RPC error. */
  | 'UPSTREAM_PROTOCOL_ERROR'
  /** `mount()` of a server that mounts (directly or through others) the mounting server, or of itself. */
  | 'MOUNT_CYCLE'
  /** A feature the runtime or entry point does not offer (see {@link UnsupportedFeatureError}). */
  | 'UNSUPPORTED_FEATURE'
  /** A tool override that is malformed or would make two tools share a name (see {@link ToolOverrideError}). */
  | 'TOOL_OVERRIDE';

/**
 * Base class of every error the toolkit throws on purpose.
 *
 * `code` is stable across releases; `message` is written for a person.
 */
export class ToolkitError extends Error {
  /** Stable machine-readable code. */
  readonly code: ToolkitErrorCode;

  constructor(code: ToolkitErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/**
 * Thrown by `registerTool` when a tool with the same name is already registered
 * (code `DUPLICATE_TOOL`). Names are unique across the whole registry.
 */
export class DuplicateToolError extends ToolkitError {
  /** Set when the name repeats inside the package being registered (then nothing was registered). */
  readonly inPackage?: { name?: string };

  /**
   * @param toolName - the repeated name.
   * @param inPackage - the package (and its name, if it has one) that holds the name twice.
   */
  constructor(
    readonly toolName: string,
    inPackage?: { name?: string },
  ) {
    const where = inPackage && (inPackage.name ? `The package "${inPackage.name}"` : 'The package');
    super(
      'DUPLICATE_TOOL',
      where
        ? `${where} contains two tools named "${toolName}"; nothing was registered (tool names must be unique: rename one of them).`
        : `A tool named "${toolName}" is already registered; tool names must be unique (rename one of them or register it once).`,
    );
    this.inPackage = inPackage;
  }
}

/** Thrown when a tool definition is unusable, e.g. an empty name or a malformed schema (code `INVALID_TOOL`). */
export class InvalidToolError extends ToolkitError {
  constructor(message: string) {
    super('INVALID_TOOL', message);
  }
}

/**
 * Thrown by `registerPrompt` when a prompt with the same name is already registered
 * (code `DUPLICATE_PROMPT`). Prompt names are unique per server (MCP "Prompts").
 */
export class DuplicatePromptError extends ToolkitError {
  constructor(readonly promptName: string) {
    super(
      'DUPLICATE_PROMPT',
      `A prompt named "${promptName}" is already registered; prompt names must be unique (rename one of them or register it once).`,
    );
  }
}

/**
 * Thrown when a prompt definition is unusable (code `INVALID_PROMPT`): an empty name, a
 * repeated or empty argument name, an empty `enum`, or an arguments schema that does not
 * describe an object.
 */
export class InvalidPromptError extends ToolkitError {
  constructor(message: string) {
    super('INVALID_PROMPT', message);
  }
}

/**
 * Thrown by `registerResource` / `registerResourceTemplate` when the URI (or URI template) is
 * already registered (code `DUPLICATE_RESOURCE`). `uri` is the URI or the template string.
 */
export class DuplicateResourceError extends ToolkitError {
  constructor(
    readonly uri: string,
    kind: 'resource' | 'resource template' = 'resource',
  ) {
    super(
      'DUPLICATE_RESOURCE',
      `A ${kind} with URI${kind === 'resource' ? '' : ' template'} "${uri}" is already registered.`,
    );
  }
}

/**
 * Thrown when a resource or resource template definition is unusable (code
 * `INVALID_RESOURCE`): a URI that is not absolute, a malformed RFC 6570 template, an empty
 * name, a missing `read` function, or a `complete` entry naming no template variable.
 */
export class InvalidResourceError extends ToolkitError {
  constructor(message: string) {
    super('INVALID_RESOURCE', message);
  }
}

/**
 * Throw this from a tool's `execute()` when the message is meant for the caller
 * (the model or the person behind it). The message is sent as-is in a tool result
 * with `isError: true`; other errors are sent with their message too, but this class
 * states the intent and is never logged as a server fault.
 */
export class UserError extends ToolkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('USER_ERROR', message, options);
  }
}

/**
 * Thrown by `registerDocument` / `registerFolder` when the path is missing or is
 * not the expected kind (codes `NOT_A_FILE`, `NOT_A_DIRECTORY`).
 */
export class InvalidPathError extends ToolkitError {
  constructor(
    code: 'NOT_A_FILE' | 'NOT_A_DIRECTORY' | 'PATH_OUTSIDE_ROOT',
    readonly path: string,
    message: string,
  ) {
    super(code, message);
  }
}

/**
 * Thrown on `resources/read` (and `server.readResource`) when a URI names nothing this server
 * serves (no document, resource or matching template), or the file behind a document has
 * vanished (code `RESOURCE_NOT_FOUND`). Sent to clients as the MCP "Resource not found"
 * JSON-RPC error (-32602, as the SDK answers it on every revision).
 */
export class ResourceNotFoundError extends ToolkitError {
  constructor(
    readonly uri: string,
    message = `Resource not found: ${uri}`,
  ) {
    super('RESOURCE_NOT_FOUND', message);
  }
}

/**
 * The former name of {@link ResourceNotFoundError} (the same class: `instanceof` either works).
 * @deprecated Use `ResourceNotFoundError`; it is thrown for every kind of resource, not only documents.
 */
export const DocumentNotFoundError = ResourceNotFoundError;
/** @deprecated Use `ResourceNotFoundError`. */
export type DocumentNotFoundError = ResourceNotFoundError;

/**
 * Thrown on `resources/read` when a file is larger than the configured limit
 * (code `RESOURCE_TOO_LARGE`) or a converter fails on it (code `CONVERSION_FAILED`).
 * The message names the file and the reason.
 */
export class DocumentReadError extends ToolkitError {
  constructor(
    code: 'RESOURCE_TOO_LARGE' | 'CONVERSION_FAILED' | 'CONVERSION_LIMIT',
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/**
 * Which limit stopped a conversion: wall time (ms), worker heap (MiB), converted output (characters) or
 * the inflated size of an archive such as a DOCX (bytes).
 */
export type ConversionLimit = 'time' | 'heap' | 'output' | 'inflated';

const LIMIT_WORDS: Record<ConversionLimit, (value: number) => string> = {
  time: (value) => `it ran past the time limit of ${value.toLocaleString('en-US')} ms`,
  heap: (value) => `it ran out of the converter's heap limit of ${value.toLocaleString('en-US')} MiB`,
  output: (value) => `its text passed the output limit of ${value.toLocaleString('en-US')} characters`,
  inflated: (value) =>
    `its archive inflates past the limit of ${value.toLocaleString('en-US')} bytes ` +
    `(${(value / 1048576).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB)`,
};

/**
 * Thrown on a read (and by a converter that stops early) when converting a file went over a limit
 * (code `CONVERSION_LIMIT`): `limit` says which, `value` is the configured limit (ms for `time`, MiB for
 * `heap`, characters for `output`, bytes for `inflated`). The message names the limit, the file and the value. The document
 * store remembers it: the same unchanged file is not converted again until it changes on disk.
 */
export class ConversionLimitError extends DocumentReadError {
  constructor(
    readonly limit: ConversionLimit,
    path: string,
    readonly value: number,
    options?: { cause?: unknown },
  ) {
    super(
      'CONVERSION_LIMIT',
      path,
      `Cannot convert ${path}: ${LIMIT_WORDS[limit](value)}, so the conversion was stopped. ` +
        'It is not tried again until the file changes.',
      options,
    );
  }
}

/**
 * Thrown by a constructor, factory or registration call given options it cannot use (code
 * `INVALID_OPTIONS`), so that it fails at once instead of misbehaving later:
 * - a key it does not know, such as a misspelling (`timeOutMs`) or an option of another framework
 *   (`sslCert`): the message names each unknown key (in `unknownKeys`), a near spelling where there is
 *   one, and the known keys;
 * - a value of the wrong type or out of range (`watch: 'false'`, `port: -1`): the message names the
 *   option, what it must be and the value received, also found in `option`, `expected` and `received`
 *   (`unknownKeys` is empty).
 */
export class InvalidOptionsError extends ToolkitError {
  /** The option whose value was refused, as a path (`https.key`, `extensions`); unset for unknown keys. */
  readonly option?: string;
  /** What the value must be, in words (`a boolean`, `an integer >= 1`). */
  readonly expected?: string;
  /** The refused value, described (`"false"`, `-1`, `an object`). */
  readonly received?: string;

  /**
   * @param owner - what the options configure (`HttpMcpServer options`).
   * @param unknownKeys - the keys that were not recognized (empty for a refused value).
   * @param value - for a refused value: the option, what it must be and what was received.
   */
  constructor(
    readonly owner: string,
    readonly unknownKeys: readonly string[],
    message: string,
    value?: { option: string; expected: string; received: string },
  ) {
    super('INVALID_OPTIONS', message);
    this.option = value?.option;
    this.expected = value?.expected;
    this.received = value?.received;
  }
}

/** Thrown when a method is called in a lifecycle state that does not allow it, e.g. `start()` twice (code `SERVER_STATE`). */
export class ServerStateError extends ToolkitError {
  constructor(message: string) {
    super('SERVER_STATE', message);
  }
}

/**
 * Throw this from an HTTP server's `authenticate(request)` hook to refuse a request
 * (code `UNAUTHENTICATED`). The server answers `status` (default 401) with a
 * `WWW-Authenticate: <challenge>` header (default `Bearer`, RFC 6750 section 3) and a
 * JSON-RPC error whose message is this error's message. Any other error thrown by the
 * hook is answered 401 with a generic message, so internals never leak to clients.
 */
export class AuthenticationError extends ToolkitError {
  /** HTTP status to answer: 401 (no or bad credentials) or 403 (valid but insufficient, e.g. a missing scope). */
  readonly status: 401 | 403;
  /** `WWW-Authenticate` header value, e.g. `Bearer error="invalid_token"`; the server's default when undefined. */
  readonly challenge?: string;

  constructor(message = 'Unauthorized', options: { status?: 401 | 403; challenge?: string; cause?: unknown } = {}) {
    super('UNAUTHENTICATED', message, { cause: options.cause });
    this.status = options.status ?? 401;
    this.challenge = options.challenge;
  }
}

/** Why a tool call's `signal` fired. */
export type ToolAbortReason = 'cancelled' | 'disconnected' | 'timeout' | 'shutdown';

/**
 * The `reason` of a tool's `context.signal` when it aborts (code `TOOL_CALL_ABORTED`):
 * `cancelled` (the client sent `notifications/cancelled`), `disconnected` (the
 * connection or session closed), `timeout` (the tool's `timeoutMs` passed) or
 * `shutdown` (the server is stopping).
 */
export class ToolCallAbortedError extends ToolkitError {
  constructor(
    readonly reason: ToolAbortReason,
    message: string,
  ) {
    super('TOOL_CALL_ABORTED', message);
  }
}

/** A client capability a server-to-client request needs. */
export type ClientInputCapability = 'elicitation' | 'elicitation.url' | 'sampling' | 'roots';

/**
 * Thrown by `context.elicit()` / `context.sample()` / `context.listRoots()` when the client
 * did not declare the needed capability (`capability`: `elicitation`, `elicitation.url` for
 * `context.elicitUrl()`, `sampling` or `roots`),
 * code `INPUT_UNAVAILABLE`. When it escapes a tool on the legacy era the caller receives the
 * message in an `isError` result; on 2026-07-28 the request fails with JSON-RPC -32021
 * (MissingRequiredClientCapabilityError naming the capability, HTTP 400), as that revision requires.
 */
export class InputUnavailableError extends ToolkitError {
  constructor(
    message: string,
    readonly capability?: ClientInputCapability,
  ) {
    super('INPUT_UNAVAILABLE', message);
  }
}

/**
 * Thrown by a `ToolStateStore` when the saved tool state exists but cannot be read, parsed or
 * written (code `TOOL_STATE`), e.g. a truncated or hand-edited JSON state file. `source` names
 * what failed (the file path, or a store description). When `load()` throws it at `start()`,
 * the server logs a warning naming `source` and keeps its configured disabled set; a failed
 * save is logged and retried with the next change.
 */
export class ToolStateError extends ToolkitError {
  constructor(
    message: string,
    readonly source: string,
    options?: { cause?: unknown },
  ) {
    super('TOOL_STATE', message, options);
  }
}

/**
 * Thrown by `FileToolStateStore` (code `TOOL_STATE_LOCKED`) when another live process writes the
 * same state file: one writer per file, or each would erase the other's changes. `pid` names the
 * other process (undefined when its lock file is unreadable); `lockFile` is `<file>.lock`. Not a
 * `ToolStateError`: the server does not fall back to defaults, `start()` rejects.
 */
export class ToolStateLockedError extends ToolkitError {
  constructor(
    message: string,
    readonly file: string,
    readonly lockFile: string,
    readonly pid: number | undefined,
  ) {
    super('TOOL_STATE_LOCKED', message);
  }
}

/**
 * Thrown when the shared store of a cluster of replicas (Redis) cannot be reached (code
 * `CLUSTER_UNAVAILABLE`): by `createCluster()` at start when Redis does not answer within
 * `connectTimeoutMs` and `onUnavailable` is `'fail'` (the default), and by cluster-wide reads
 * such as the session listing while Redis is down. `url` names the Redis endpoint (password removed).
 */
export class ClusterUnavailableError extends ToolkitError {
  constructor(
    message: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super('CLUSTER_UNAVAILABLE', message, options);
  }
}

/**
 * Thrown by the MCP tasks layer (`src/tasks/`, MCP "Basic / Utilities / Tasks" and SEP-2663):
 * code `TASK_NOT_FOUND` (unknown id, expired, or bound to another principal: the same error
 * for all three, so ids cannot be probed), `TASK_LIMIT` (the server's concurrent-task limit
 * for the principal or overall is reached), `INVALID_ARGUMENTS` (malformed task parameters or
 * a cursor the store did not make) or `SERVER_STATE` (a store invariant broke, e.g. a
 * duplicate id). Sent to clients as JSON-RPC -32602 (invalid params), or -32603 for
 * `SERVER_STATE`.
 */
export class TaskError extends ToolkitError {
  constructor(
    code: 'TASK_NOT_FOUND' | 'TASK_LIMIT' | 'INVALID_ARGUMENTS' | 'SERVER_STATE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/**
 * Thrown when a feature needs an optional peer dependency that is not installed (code
 * `MISSING_DEPENDENCY`), e.g. `createCluster()` (from `mcp-toolkit/cluster`) without the `redis`
 * package. `packageName` is the npm package to add; the message says how (`npm install redis`).
 */
export class MissingDependencyError extends ToolkitError {
  constructor(
    readonly packageName: string,
    feature: string,
    options?: { cause?: unknown },
  ) {
    super(
      'MISSING_DEPENDENCY',
      `${feature} needs the "${packageName}" package, which is not installed: npm install ${packageName}`,
      options,
    );
  }
}

/**
 * Thrown by `fromOpenAPI` (`mcp-toolkit/openapi`) when a spec cannot become tools (code
 * `INVALID_OPENAPI`): it cannot be read or parsed, a `$ref` does not resolve, it is not an
 * OpenAPI 3.x document, it has no usable server URL, or a `toolName` gives an invalid or
 * repeated name. Also when `@apidevtools/swagger-parser` (an optional peer dependency) is missing.
 */
export class OpenApiError extends ToolkitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INVALID_OPENAPI', message, options);
  }
}

/**
 * Thrown by middleware (the `rateLimit()` built-in of `mcp-toolkit/middleware`, or an app's own) to
 * refuse a request over a budget (code `RATE_LIMITED`). On `tools/call` the caller gets a tool
 * result with `isError: true` whose text is this message and whose `_meta` carries
 * `retryAfterMs`; on other methods a JSON-RPC error {@link RATE_LIMITED_ERROR_CODE} with
 * `data: { retryAfterMs }`. The message should say when to retry.
 */
export class RateLimitedError extends ToolkitError {
  /**
   * @param retryAfterMs - how long (ms) until a retry can succeed.
   * @param message - for the caller; names what was limited and when to retry.
   */
  constructor(
    readonly retryAfterMs: number,
    message: string,
  ) {
    super('RATE_LIMITED', message);
  }
}

/**
 * The JSON-RPC error code of a request refused by {@link RateLimitedError} on methods other than
 * `tools/call` (an implementation-defined server error, JSON-RPC 2.0 section 5.1: -32000 to -32099).
 */
export const RATE_LIMITED_ERROR_CODE = -32029;

/**
 * About an upstream server of a gateway (`server.addUpstream()`, docs/composition.md), naming it in
 * `upstream`: code `INVALID_UPSTREAM` (its configuration is unusable, thrown by `addUpstream`),
 * `UPSTREAM_UNAVAILABLE` (it is not connected, or its connection ended during a call: the caller gets
 * an `isError` result) or `UPSTREAM_PROTOCOL_ERROR` (it answered with a JSON-RPC error: `rpcCode` and
 * `data` are that error's, and a forwarded `tools/call` answers the caller with the same code);
 * `MOUNT_CYCLE` (thrown by `mount()` when the mounted server mounts the mounting one, directly or
 * through others, or is the same server). Messages never contain the upstream's environment or headers.
 */
export class UpstreamError extends ToolkitError {
  /** The JSON-RPC error code the upstream answered with (`UPSTREAM_PROTOCOL_ERROR` only). */
  readonly rpcCode?: number;
  /** The `data` of the upstream's JSON-RPC error, if any. */
  readonly data?: unknown;
  constructor(
    code: 'INVALID_UPSTREAM' | 'UPSTREAM_UNAVAILABLE' | 'UPSTREAM_PROTOCOL_ERROR' | 'MOUNT_CYCLE',
    readonly upstream: string,
    message: string,
    options?: { cause?: unknown; rpcCode?: number; data?: unknown },
  ) {
    super(code, message, options);
    this.rpcCode = options?.rpcCode;
    this.data = options?.data;
  }
}

/**
 * Thrown when a server is asked for a feature its runtime does not offer (code `UNSUPPORTED_FEATURE`):
 * `registerDocument()` / `registerFolder()` on a server made from `mcp-toolkit/fetch`
 * (`FetchMcpServer`, for Bun, Deno and Cloudflare Workers), which has no file system behind it.
 * `feature` names what was asked for.
 */
export class UnsupportedFeatureError extends ToolkitError {
  constructor(
    readonly feature: string,
    message: string,
  ) {
    super('UNSUPPORTED_FEATURE', message);
  }
}

/**
 * Thrown by `setToolOverride` (code `TOOL_OVERRIDE`): `reason` `'invalid'` for a malformed
 * override (unknown field, non-string, a new name breaking the MCP tool-name rules of SEP-986,
 * too long), `'collision'` when the new name is another tool's name or another override's new name.
 */
export class ToolOverrideError extends ToolkitError {
  /**
   * @param toolName - the registered name of the tool being overridden.
   * @param reason - what is wrong (see the class comment).
   */
  constructor(
    readonly toolName: string,
    readonly reason: 'invalid' | 'collision',
    message: string,
  ) {
    super('TOOL_OVERRIDE', message);
  }
}
