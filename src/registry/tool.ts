import { checkArgument, FUNCTION } from '../option-values.js';
import { optionKeys } from '../known-options.js';
import { checkSpec, TOOL_SPEC_RULES } from './definition-values.js';
import type { AuthInfo, CallToolResult, Icon, StandardSchemaV1, ToolAnnotations } from '@modelcontextprotocol/server';
import { InvalidToolError } from '../errors.js';
import { accessRuleOf } from './access-rule.js';
import { TOOL_NAME_PATTERN as TOOL_NAME } from '../tool-overrides.js';
import { scanParamHeaders } from './param-header-rules.js';
import { compileSchema, type CompiledSchema, type ToolSchema } from './schema.js';
import type { ToolContext } from './tool-context.js';
import type { ToolReturn } from './tool-result.js';

/** The static description of a tool: what `tools/list` shows. */
export interface ToolDefinition {
  /** Unique name, 1-128 characters from `A-Z a-z 0-9 _ - .` (MCP tool naming rule). */
  name: string;
  /** Human-readable display name. */
  title?: string;
  /** What the tool does, written for the model. */
  description?: string;
  /** Arguments: zod 4 / any Standard Schema with JSON Schema, or a plain JSON Schema object. Omitted = no arguments. */
  inputSchema?: ToolSchema;
  /** Shape of `structuredContent` in results (same forms as `inputSchema`). */
  outputSchema?: ToolSchema;
  /** MCP tool annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint, title). */
  annotations?: ToolAnnotations;
  /** Icons shown by clients (MCP `Icon[]`). */
  icons?: Icon[];
  /** Free-form `_meta` passed through in `tools/list`. */
  _meta?: Record<string, unknown>;
  /**
   * Time limit for one call, in ms. When it passes, `context.signal` aborts with a
   * `ToolCallAbortedError` (reason `timeout`) and the caller gets an `isError` result.
   */
  timeoutMs?: number;
  /**
   * Who may see and call the tool. Return false to hide it from this caller's
   * `tools/list` and reject its `tools/call`. `auth` is what the HTTP `authenticate`
   * hook returned (undefined on stdio or without auth).
   */
  canAccess?: (auth: AuthInfo | undefined) => boolean;
  /**
   * OAuth scopes a caller must hold (`auth.scopes`) to see and call the tool; without them it is
   * hidden from `tools/list`, and with `HttpMcpServer({ authorization })` a `tools/call` gets
   * 403 `insufficient_scope` naming them (docs/authorization.md). Checked before `canAccess`.
   */
  requiredScopes?: readonly string[];
  /**
   * Whether a call may run as an MCP task (MCP 2025-11-25 `execution.taskSupport`; the
   * 2026-07-28 tasks extension): `forbidden` (default), `optional` or `required`. The same
   * `execute` serves both; see `docs/tasks.md`. Listed in `tools/list` as `execution.taskSupport`
   * to 2025-11-25 clients only: the 2026-07-28 `Tool` has no `execution` field.
   */
  taskSupport?: TaskSupport;
  /**
   * 2026-07-28 only: run this long (ms) before answering with a task; overrides the server's
   * `tasks.taskAfterMs`. A call that ends (or asks for input) sooner is answered directly.
   */
  taskAfterMs?: number;
}

/** How a tool takes part in MCP tasks (MCP 2025-11-25 `ToolExecution.taskSupport`). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/** The wire form of a tool in `tools/list` (MCP `Tool`). */
export type ListedTool = Readonly<Record<string, unknown>> & { readonly name: string };

/**
 * A tool: a name, schemas and an `execute(args, context)` method.
 *
 * Subclass it and implement `execute`, or use {@link defineTool} for a one-off.
 * What `execute` returns is described by {@link ToolReturn}; anything it throws is
 * sent to the caller as a tool result with `isError: true` (throw `UserError` for
 * messages meant for the caller). Arguments are validated against `inputSchema`
 * before `execute` runs. A per-session tool (see `BaseMcpServerOptions.sessionTools`)
 * may define a `dispose()` method: it runs exactly once when its session ends.
 *
 * @throws InvalidToolError from the constructor when the name breaks the MCP naming
 *   rule; from registration (`compiled()`) when a schema is not an object schema or an
 *   `x-mcp-header` annotation breaks the 2026-07-28 rules.
 */
export abstract class Tool<Args = Record<string, unknown>> {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly annotations?: ToolAnnotations;
  readonly icons?: Icon[];
  readonly inputSchema?: ToolSchema;
  readonly outputSchema?: ToolSchema;
  readonly _meta?: Record<string, unknown>;
  readonly timeoutMs?: number;
  /** The access rule: `requiredScopes` and `canAccess` of the definition combined (see {@link accessRuleOf}). */
  readonly canAccess?: (auth: AuthInfo | undefined) => boolean;
  readonly requiredScopes?: readonly string[];
  readonly taskSupport?: TaskSupport;
  readonly taskAfterMs?: number;
  #compiled?: { input: CompiledSchema; output?: CompiledSchema; listed: ListedTool };

  constructor(definition: ToolDefinition) {
    if (!TOOL_NAME.test(definition.name)) {
      throw new InvalidToolError(
        `Invalid tool name "${definition.name}": use 1-128 characters from A-Z, a-z, 0-9, "_", "-" and ".".`,
      );
    }
    this.name = definition.name;
    this.title = definition.title;
    this.description = definition.description;
    this.annotations = definition.annotations;
    this.icons = definition.icons;
    this.inputSchema = definition.inputSchema;
    this.outputSchema = definition.outputSchema;
    this._meta = definition._meta;
    if (definition.timeoutMs !== undefined && !(definition.timeoutMs > 0)) {
      throw new InvalidToolError(`Tool "${definition.name}": timeoutMs must be a positive number of milliseconds.`);
    }
    this.timeoutMs = definition.timeoutMs;
    this.requiredScopes = definition.requiredScopes && [...definition.requiredScopes];
    this.canAccess = accessRuleOf(`Tool "${definition.name}"`, definition.requiredScopes, definition.canAccess);
    if (
      definition.taskSupport !== undefined &&
      !['forbidden', 'optional', 'required'].includes(definition.taskSupport)
    ) {
      throw new InvalidToolError(
        `Tool "${definition.name}": taskSupport must be "forbidden", "optional" or "required".`,
      );
    }
    if (definition.taskAfterMs !== undefined && !(definition.taskAfterMs >= 0)) {
      throw new InvalidToolError(`Tool "${definition.name}": taskAfterMs must be a number of milliseconds >= 0.`);
    }
    this.taskSupport = definition.taskSupport;
    this.taskAfterMs = definition.taskAfterMs;
  }

  /** Runs the tool. `args` has passed `inputSchema` validation. */
  abstract execute(args: Args, context: ToolContext): ToolReturn | Promise<ToolReturn>;

  /**
   * Schemas compiled once and the frozen `tools/list` entry, built on first use so
   * listing 1,000 tools costs no schema conversion after the first time.
   * @throws InvalidToolError when a schema is unusable, or when an `x-mcp-header` annotation of
   *   `inputSchema` breaks a 2026-07-28 rule (see `param-header-rules.ts`); the message names the
   *   tool, the property and the rule.
   */
  compiled(): { input: CompiledSchema; output?: CompiledSchema; listed: ListedTool } {
    if (this.#compiled) return this.#compiled;
    const input = compileSchema(this.inputSchema, `Tool "${this.name}" inputSchema`);
    const { problem } = scanParamHeaders(input.json);
    if (problem) {
      throw new InvalidToolError(
        `Tool "${this.name}" inputSchema: ${problem}. 2026-07-28 clients drop a tool with such an annotation ` +
          '(MCP 2026-07-28 Streamable HTTP, "Custom Headers from Tool Parameters").',
      );
    }
    const output = this.outputSchema ? compileSchema(this.outputSchema, `Tool "${this.name}" outputSchema`) : undefined;
    const listed: Record<string, unknown> = { name: this.name, inputSchema: input.json };
    if (this.title !== undefined) listed.title = this.title;
    if (this.description !== undefined) listed.description = this.description;
    if (output) listed.outputSchema = output.json;
    if (this.annotations !== undefined) listed.annotations = this.annotations;
    if (this.icons !== undefined) listed.icons = this.icons;
    if (this._meta !== undefined) listed._meta = this._meta;
    if (this.taskSupport !== undefined) listed.execution = { taskSupport: this.taskSupport };
    this.#compiled = { input, output, listed: Object.freeze(listed) as ListedTool };
    return this.#compiled;
  }
}

/** The toolkit's own tools, whose schemas are known to compile (see {@link schemasKnownGood}). */
const knownGood = new WeakSet<Tool<never>>();

/**
 * Marks one of the toolkit's own tools (the document tools) as having schemas that compile: registration then leaves
 * the compiling (zod to JSON Schema, ~2 ms a tool at a cold start) to the first `tools/list` or `tools/call`, as the
 * SDK's own `registerTool` does, instead of doing it before the server can answer `initialize` (bench W0, CLI).
 * test/document-tools/strict-schemas.test.ts compiles them. An app's tools are always compiled at registration, so a
 * bad schema fails there.
 */
export function schemasKnownGood<T extends Tool<never>>(tool: T): T {
  knownGood.add(tool);
  return tool;
}

/** Whether registration must compile `tool`'s schemas now (every tool but those marked by {@link schemasKnownGood}). */
export function compilesAtRegistration(tool: Tool<never>): boolean {
  return !knownGood.has(tool);
}

/** A {@link ToolDefinition} plus its `execute` function, for {@link defineTool}. */
export interface ToolSpec<Args> extends ToolDefinition {
  execute(args: Args, context: ToolContext): ToolReturn | Promise<ToolReturn>;
}

/** What `execute` returns for an `outputSchema` of type `O`: its structured value (sent as `structuredContent`) or a full result. */
export type ToolOutput<O> = [O] extends [StandardSchemaV1]
  ? StandardSchemaV1.InferInput<O> | CallToolResult
  : ToolReturn;

/**
 * The spec {@link defineTool} infers from: `Args` comes from a Standard Schema `inputSchema`
 * (zod 4 etc.), and with a Standard Schema `outputSchema` of type `O`, `execute` must return a
 * value of that schema's input type (or a full `CallToolResult`).
 */
export type TypedToolSpec<Args, O> = Omit<ToolDefinition, 'outputSchema'> & {
  outputSchema?: O;
  execute(args: Args, context: ToolContext): ToolOutput<O> | Promise<ToolOutput<O>>;
};

const TOOL_SPEC_KEYS = optionKeys<ToolSpec<unknown>>()([
  'name',
  'title',
  'description',
  'inputSchema',
  'outputSchema',
  'annotations',
  'icons',
  'timeoutMs',
  'canAccess',
  'requiredScopes',
  'taskSupport',
  'taskAfterMs',
  '_meta',
  'execute',
]);

class FunctionTool<Args> extends Tool<Args> {
  readonly #run: ToolSpec<Args>['execute'];
  constructor(spec: ToolSpec<Args>) {
    super(spec);
    this.#run = spec.execute;
  }
  execute(args: Args, context: ToolContext): ToolReturn | Promise<ToolReturn> {
    return this.#run(args, context);
  }
}

/**
 * Creates a {@link Tool} from a plain object. With a Standard Schema `inputSchema` (zod 4,
 * ArkType, ...), `execute`'s arguments are typed from it; with a Standard Schema `outputSchema`,
 * its return value is checked against it. With a plain JSON Schema, give the argument type
 * explicitly: `defineTool<{ a: number }>({ inputSchema: { type: 'object', ... }, ... })`.
 *
 * ```ts
 * const add = defineTool({
 *   name: 'add',
 *   inputSchema: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => String(a + b), // a: number, b: number
 * });
 * ```
 * @throws InvalidToolError as the {@link Tool} constructor does.
 * @throws InvalidOptionsError when the spec is not an object, has a key that {@link ToolSpec} does not define
 *   (e.g. `timeOutMs`), or a field of the wrong type or missing (`execute` missing or not a function,
 *   `annotations` not an object).
 */
export function defineTool<I extends StandardSchemaV1, O extends ToolSchema | undefined = ToolSchema | undefined>(
  spec: Omit<TypedToolSpec<StandardSchemaV1.InferOutput<I>, O>, 'inputSchema'> & { inputSchema: I },
): Tool<StandardSchemaV1.InferOutput<I>>;
export function defineTool<Args = Record<string, unknown>, O extends ToolSchema | undefined = ToolSchema | undefined>(
  spec: TypedToolSpec<NoInfer<Args>, O>,
): Tool<Args>;
export function defineTool<Args>(spec: ToolSpec<Args>): Tool<Args> {
  checkSpec('defineTool', spec, TOOL_SPEC_KEYS, TOOL_SPEC_RULES);
  // Without it the tool would register and fail on every call with an internal message.
  checkArgument(`defineTool option (tool "${String(spec.name)}")`, 'execute', spec.execute, FUNCTION);
  return new FunctionTool(spec);
}
