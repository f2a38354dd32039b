import { InvalidToolError } from '../errors.js';
import { fromLlmChatTool, hasShape, isLlmChatTool, type LlmChatToolShape } from './llm-chat-adapter.js';
import type { Tool } from './tool.js';
import { ToolPackage } from './tool-package.js';

/**
 * The public shape of a `ToolPackage` of `@johannes.latzel/llm-chat` (0.7): `tools()` returns
 * its tools, `tutorial()` a usage text for the model or null. Recognized by shape.
 */
export interface LlmChatToolPackageShape {
  tools(): readonly (LlmChatToolShape | Tool<never>)[];
  tutorial(): string | null | undefined;
}

/**
 * Everything `registerTool()` accepts: the toolkit's own {@link Tool} and {@link ToolPackage},
 * and llm-chat `Tool` / `ToolPackage` objects as they are (recognized by shape).
 */
export type RegistrableTool = Tool<never> | ToolPackage | LlmChatToolShape | LlmChatToolPackageShape;

const EXPECTED =
  'registerTool() expects a Tool or ToolPackage of this toolkit, an llm-chat Tool (name, execute(args), toOpenAI()) ' +
  'or an llm-chat ToolPackage (tools(), tutorial()); wrap other tool objects with fromLlmChatTool() or build them with defineTool()';

/** True for the toolkit's own tool (by shape, so a copy of the toolkit loaded twice still counts). */
function isOwnTool(value: unknown): value is Tool<never> {
  return hasShape(value, { name: 'string', execute: 'function', compiled: 'function' });
}

/** True for an object with the public shape of an llm-chat `ToolPackage`. */
export function isLlmChatToolPackage(value: unknown): value is LlmChatToolPackageShape {
  return hasShape(value, { tools: 'function', tutorial: 'function' });
}

/** A short description of what was passed, for error messages (never the whole object). */
function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value;
  const name = (value as { name?: unknown }).name;
  const ctor = (value as object).constructor?.name;
  const label = ctor && ctor !== 'Object' ? `a ${ctor}` : 'an object';
  return typeof name === 'string' ? `${label} named "${name}"` : label;
}

/** What is missing on an object that looks like an llm-chat tool, if it does. */
function almostLlmChatTool(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const candidate = value as Record<string, unknown>;
  if (typeof candidate.toOpenAI !== 'function' && !('parameters' in candidate)) return undefined;
  if (typeof candidate.name !== 'string') return 'it has no string `name`';
  if (typeof candidate.execute !== 'function') return 'it has no `execute(args)` method';
  return undefined;
}

/**
 * Turns one tool-like item (our tool, an llm-chat tool) into a toolkit {@link Tool}.
 * @throws InvalidToolError naming what was expected.
 */
export function toTool(item: unknown, where = 'registerTool()'): Tool<never> {
  if (isOwnTool(item)) return item;
  if (isLlmChatTool(item)) return fromLlmChatTool(item) as Tool<never>;
  const missing = almostLlmChatTool(item);
  if (missing) throw new InvalidToolError(`${where}: ${describe(item)} looks like an llm-chat tool but ${missing}.`);
  throw new InvalidToolError(`${EXPECTED}; ${where} got ${describe(item)}.`);
}

/** Calls one of an llm-chat package's methods, turning what it throws into a clear `InvalidToolError`. */
function callPackage<T>(pkg: LlmChatToolPackageShape, method: 'tools' | 'tutorial'): T {
  try {
    return pkg[method]() as T;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new InvalidToolError(`llm-chat ToolPackage (${describe(pkg)}): ${method}() threw: ${reason}`);
  }
}

/** Converts an llm-chat package: every tool converted first (so a bad one registers nothing), tutorial as instructions. */
function fromLlmChatPackage(pkg: LlmChatToolPackageShape): ToolPackage {
  const label = describe(pkg);
  const items = callPackage<unknown>(pkg, 'tools');
  if (!Array.isArray(items)) {
    throw new InvalidToolError(
      `llm-chat ToolPackage (${label}): tools() must return an array, got ${describe(items)}.`,
    );
  }
  const tools = items.map((tool, index) => toTool(tool, `llm-chat ToolPackage (${label}), tool #${index + 1}`));
  const tutorial = callPackage<unknown>(pkg, 'tutorial');
  if (tutorial !== null && tutorial !== undefined && typeof tutorial !== 'string') {
    throw new InvalidToolError(`llm-chat ToolPackage (${label}): tutorial() must return a string or null.`);
  }
  // An explicit `name` property wins: a minifier renames classes, so the class name is only a fallback.
  const explicit = (pkg as { name?: unknown }).name;
  const ctor = (pkg as object).constructor?.name;
  const name = typeof explicit === 'string' && explicit !== '' ? explicit : ctor !== 'Object' ? ctor : undefined;
  return new ToolPackage(tools, {
    ...(name && { name }),
    ...(tutorial && { instructions: tutorial }),
  });
}

/**
 * The normalization step in front of the registry: turns anything `registerTool()` accepts
 * ({@link RegistrableTool}) into the toolkit's own {@link Tool} or {@link ToolPackage}. Every
 * conversion happens here, before the registry sees the item, so a broken tool in a package
 * leaves nothing half-registered.
 *
 * - our `Tool` -> itself; our `ToolPackage` -> itself, or a copy whose llm-chat members are
 *   converted (a mixed package);
 * - an llm-chat `Tool` -> {@link fromLlmChatTool};
 * - an llm-chat `ToolPackage` -> a `ToolPackage` of its converted `tools()` (llm-chat tools and
 *   toolkit tools may be mixed) whose `instructions` is its non-null `tutorial()`, named by its
 *   own string `name` property when it has one, else after its class (which a minifier may rename).
 * @throws InvalidToolError when the item is none of these (the message says what was expected and
 *   names `fromLlmChatTool` / `defineTool`), when an llm-chat package's `tools()` or `tutorial()`
 *   throws or returns the wrong type, or when a member cannot be converted.
 */
export function toRegistrable(item: RegistrableTool): Tool<never> | ToolPackage {
  if (isLlmChatToolPackage(item)) return fromLlmChatPackage(item);
  if (isOwnPackage(item)) {
    const tools = item.tools.map((tool, index) => toTool(tool, `ToolPackage tool #${index + 1}`));
    if (item instanceof ToolPackage && tools.every((tool, index) => tool === item.tools[index])) return item;
    return new ToolPackage(tools, { name: item.name, instructions: item.instructions });
  }
  return toTool(item);
}

/** Our package, or one from another copy of the toolkit (same shape: a `tools` array). */
function isOwnPackage(value: unknown): value is ToolPackage {
  return (
    value instanceof ToolPackage ||
    (typeof value === 'object' && value !== null && Array.isArray((value as ToolPackage).tools))
  );
}
