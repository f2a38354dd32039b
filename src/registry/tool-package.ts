import { fromLlmChatTool, isLlmChatTool, type LlmChatToolShape } from './llm-chat-adapter.js';
import type { Tool } from './tool.js';

/** Options of a {@link ToolPackage}. */
export interface ToolPackageOptions {
  /** Package name, e.g. `documents` (informational: shown in settings UIs, not on the wire). */
  name?: string;
  /** Text describing how the tools work together; appended to the server's `instructions`. */
  instructions?: string;
}

/**
 * A bundle of tools registered together with `registerTool(pkg)`.
 * Registration is all-or-nothing: if one name clashes, none of the package's tools is added.
 * Members may be toolkit tools or llm-chat `Tool` objects (converted with `fromLlmChatTool`).
 * @throws InvalidToolError from the constructor when an llm-chat member cannot be converted.
 */
export class ToolPackage {
  readonly name?: string;
  readonly instructions?: string;
  readonly tools: readonly Tool<never>[];

  constructor(tools: readonly (Tool<never> | LlmChatToolShape)[], options: ToolPackageOptions = {}) {
    // An llm-chat tool has toOpenAI() and no compiled(): convert it; toolkit tools stay as they are.
    this.tools = tools.map((tool) =>
      isLlmChatTool(tool) && !('compiled' in tool) ? (fromLlmChatTool(tool) as Tool<never>) : (tool as Tool<never>),
    );
    this.name = options.name;
    this.instructions = options.instructions;
  }
}
