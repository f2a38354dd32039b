import type { Icon, Prompt as WirePrompt, StandardSchemaV1 } from '@modelcontextprotocol/server';
import { checkPromptSpec } from './prompt-values.js';
import { InvalidPromptError } from '../errors.js';
import { accessRuleOf, type AccessRule } from '../registry/access-rule.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { RequestContext } from '../registry/request-context.js';
import { compilePromptArguments, type CompiledPromptArguments, type PromptArgumentsInput } from './prompt-arguments.js';
import type { PromptReturn } from './prompt-result.js';

/**
 * What a prompt's `load(args, context)` receives about the `prompts/get` request it serves: the
 * request context plus `elicit`, `sample` and `listRoots`, which work as in a tool (on 2026-07-28
 * `prompts/get` answers `input_required` and `load` runs again with the answer; see `ToolContext`).
 */
export type PromptContext = RequestContext &
  Pick<ToolContext, 'elicit' | 'elicitUrl' | 'completeUrlElicitation' | 'sample' | 'listRoots'>;

/** The static description of a prompt: what `prompts/list` shows (MCP "Prompts"). */
export interface PromptDefinition {
  /** Unique name (non-empty). */
  name: string;
  /** Human-readable display name. */
  title?: string;
  /** What the prompt does, shown to the user choosing it. */
  description?: string;
  /** The arguments: a list of `PromptArgumentSpec` or a zod object schema (see `PromptArgumentsInput`). */
  arguments?: PromptArgumentsInput;
  /** Icons shown by clients (MCP `Icon[]`). */
  icons?: Icon[];
  /** Free-form `_meta` passed through in `prompts/list`. */
  _meta?: Record<string, unknown>;
  /**
   * Who may see and get the prompt, as a tool's `canAccess`: false hides it from this caller's
   * `prompts/list` and answers its `prompts/get` as an unknown prompt.
   */
  canAccess?: AccessRule;
  /**
   * OAuth scopes a caller must hold (`auth.scopes`), as on tools: hidden without them, and with
   * `HttpMcpServer({ authorization })` a `prompts/get` gets 403 `insufficient_scope`.
   */
  requiredScopes?: readonly string[];
}

/** A prompt compiled once: its arguments and its frozen `prompts/list` entry. */
export interface CompiledPrompt {
  readonly arguments: CompiledPromptArguments;
  readonly listed: Readonly<WirePrompt>;
}

/**
 * A prompt template offered to clients (MCP "Prompts": `prompts/list`, `prompts/get`).
 *
 * Subclass it and implement `load`, or use {@link definePrompt} for a one-off. `load` runs on
 * `prompts/get` with arguments that passed validation (required present, `enum` respected, or
 * the zod schema satisfied) and returns a {@link PromptReturn}. An invalid `prompts/get` is
 * answered with JSON-RPC error -32602 naming the argument; an error thrown by `load` with
 * -32603 (`UserError` messages go out verbatim, others prefixed with the prompt name).
 *
 * @throws InvalidPromptError from the constructor when the name is empty or an argument
 *   definition is unusable.
 */
export abstract class Prompt<Args = Record<string, string>> {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: PromptArgumentsInput;
  readonly icons?: Icon[];
  readonly _meta?: Record<string, unknown>;
  /** The access rule: `requiredScopes` and `canAccess` combined (see {@link accessRuleOf}). */
  readonly canAccess?: AccessRule;
  readonly requiredScopes?: readonly string[];
  readonly #compiled: CompiledPrompt;

  constructor(definition: PromptDefinition) {
    if (typeof definition?.name !== 'string' || definition.name.trim() === '') {
      throw new InvalidPromptError('A prompt needs a non-empty name.');
    }
    this.name = definition.name;
    this.title = definition.title;
    this.description = definition.description;
    this.arguments = definition.arguments;
    this.icons = definition.icons;
    this._meta = definition._meta;
    this.requiredScopes = definition.requiredScopes && [...definition.requiredScopes];
    this.canAccess = accessRuleOf(`Prompt "${definition.name}"`, definition.requiredScopes, definition.canAccess);
    const args = compilePromptArguments(definition.arguments, definition.name);
    const listed: WirePrompt = { name: this.name };
    if (this.title !== undefined) listed.title = this.title;
    if (this.description !== undefined) listed.description = this.description;
    if (args.listed.length > 0) listed.arguments = [...args.listed];
    if (this.icons !== undefined) listed.icons = this.icons;
    if (this._meta !== undefined) listed._meta = this._meta;
    this.#compiled = Object.freeze({ arguments: args, listed: Object.freeze(listed) });
  }

  /** Builds the prompt's messages. `args` passed validation. */
  abstract load(args: Args, context: PromptContext): PromptReturn | Promise<PromptReturn>;

  /** The compiled arguments and the `prompts/list` entry (built once, in the constructor). */
  compiled(): CompiledPrompt {
    return this.#compiled;
  }
}

/** A {@link PromptDefinition} plus its `load` function, for {@link definePrompt}. */
export interface PromptSpec<Args> extends PromptDefinition {
  load(args: Args, context: PromptContext): PromptReturn | Promise<PromptReturn>;
}

class FunctionPrompt<Args> extends Prompt<Args> {
  readonly #load: PromptSpec<Args>['load'];
  constructor(spec: PromptSpec<Args>) {
    super(spec);
    if (typeof spec.load !== 'function') throw new InvalidPromptError(`Prompt "${spec.name}" needs a load() function.`);
    this.#load = spec.load;
  }
  load(args: Args, context: PromptContext): PromptReturn | Promise<PromptReturn> {
    return this.#load(args, context);
  }
}

/**
 * Creates a {@link Prompt} from a plain object. With a zod object schema as `arguments`, `args`
 * is typed from the schema; with a list of arguments it is `Record<string, string>`.
 *
 * ```ts
 * const review = definePrompt({
 *   name: 'review',
 *   arguments: [{ name: 'language', required: true, enum: ['ts', 'py'] }],
 *   load: ({ language }) => `Review this ${language} code.`,
 * });
 * ```
 * @throws InvalidPromptError as the {@link Prompt} constructor does, or when `load` is missing.
 * @throws InvalidOptionsError when the spec is not an object, has a key {@link PromptSpec} does not define,
 *   or a field of the wrong type.
 */
export function definePrompt<S extends StandardSchemaV1>(
  spec: Omit<PromptSpec<StandardSchemaV1.InferOutput<S>>, 'arguments'> & { arguments: S },
): Prompt<StandardSchemaV1.InferOutput<S>>;
export function definePrompt<Args = Record<string, string>>(spec: PromptSpec<NoInfer<Args>>): Prompt<Args>;
export function definePrompt<Args>(spec: PromptSpec<Args>): Prompt<Args> {
  checkPromptSpec(spec);
  return new FunctionPrompt(spec);
}
