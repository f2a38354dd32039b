/**
 * The toolkit's error hierarchy. Every error the toolkit throws on purpose is a
 * {@link ToolkitError} with a stable {@link ToolkitErrorCode}, so apps can branch on
 * `error.code` instead of parsing messages. Protocol-facing code maps these onto
 * JSON-RPC errors (see `src/mcp/protocol-errors.ts`).
 */

/** Stable machine-readable codes carried by every {@link ToolkitError}. */
export type ToolkitErrorCode =
  | 'DUPLICATE_TOOL'
  | 'INVALID_TOOL'
  | 'TOOL_NOT_FOUND'
  | 'TOOL_DISABLED'
  | 'INVALID_ARGUMENTS'
  | 'USER_ERROR'
  | 'NOT_A_FILE'
  | 'NOT_A_DIRECTORY'
  | 'PATH_OUTSIDE_ROOT'
  | 'RESOURCE_NOT_FOUND'
  | 'RESOURCE_TOO_LARGE'
  | 'CONVERSION_FAILED'
  | 'SERVER_STATE';

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
  constructor(readonly toolName: string) {
    super(
      'DUPLICATE_TOOL',
      `A tool named "${toolName}" is already registered; tool names must be unique (rename one of them or register it once).`,
    );
  }
}

/** Thrown when a tool definition is unusable, e.g. an empty name or a malformed schema (code `INVALID_TOOL`). */
export class InvalidToolError extends ToolkitError {
  constructor(message: string) {
    super('INVALID_TOOL', message);
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
 * Thrown on `resources/read` when a URI names no registered resource, or the file
 * behind it has vanished (code `RESOURCE_NOT_FOUND`). Sent to clients as JSON-RPC
 * error -32002 (MCP "Resource not found").
 */
export class DocumentNotFoundError extends ToolkitError {
  constructor(
    readonly uri: string,
    message = `Resource not found: ${uri}`,
  ) {
    super('RESOURCE_NOT_FOUND', message);
  }
}

/**
 * Thrown on `resources/read` when a file is larger than the configured limit
 * (code `RESOURCE_TOO_LARGE`) or a converter fails on it (code `CONVERSION_FAILED`).
 * The message names the file and the reason.
 */
export class DocumentReadError extends ToolkitError {
  constructor(
    code: 'RESOURCE_TOO_LARGE' | 'CONVERSION_FAILED',
    readonly path: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** Thrown when a method is called in a lifecycle state that does not allow it, e.g. `start()` twice (code `SERVER_STATE`). */
export class ServerStateError extends ToolkitError {
  constructor(message: string) {
    super('SERVER_STATE', message);
  }
}
