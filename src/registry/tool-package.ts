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
 */
export class ToolPackage {
  readonly name?: string;
  readonly instructions?: string;
  readonly tools: readonly Tool<never>[];

  constructor(tools: readonly Tool<never>[], options: ToolPackageOptions = {}) {
    this.tools = [...tools];
    this.name = options.name;
    this.instructions = options.instructions;
  }
}
