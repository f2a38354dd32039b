import type { CallToolResult, Tool as ListedTool, ToolAnnotations } from '@modelcontextprotocol/server';
import { Tool } from '../registry/tool.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { CompiledSchema, ToolSchema } from '../registry/schema.js';
import { namespacedName } from './namespace.js';
import type { MirroredEntry } from './tool-mirror.js';

/** What a forwarded tool needs from its upstream connection. */
export interface ToolForwarder {
  /** Calls the upstream's tool `name`; rejects with an `UpstreamError` (or the abort reason when `context.signal` aborted). */
  callTool(name: string, args: Record<string, unknown>, context: ToolContext): Promise<CallToolResult>;
}

/**
 * A tool of an upstream server, listed here under `<namespace>_<name>` with the upstream's own
 * description, schemas, annotations and icons, and run by forwarding `tools/call` to it (with
 * progress and cancellation). Arguments are not validated here: the upstream validates them
 * against the same schema, and its argument error (an `isError` result, or JSON-RPC -32602) goes
 * back to the caller as it is. Validating here too cost a second schema check per call (#27).
 */
class UpstreamTool extends Tool<Record<string, unknown>> {
  constructor(
    listed: ListedTool,
    localName: string,
    private readonly forwarder: ToolForwarder,
    withOutputSchema: boolean,
  ) {
    super({
      name: localName,
      ...(listed.title !== undefined && { title: listed.title }),
      ...(listed.description !== undefined && { description: listed.description }),
      inputSchema: listed.inputSchema as ToolSchema,
      ...(withOutputSchema && listed.outputSchema !== undefined && { outputSchema: listed.outputSchema as ToolSchema }),
      ...(listed.annotations !== undefined && { annotations: listed.annotations as ToolAnnotations }),
      ...(listed.icons !== undefined && { icons: listed.icons }),
      ...(listed._meta !== undefined && { _meta: listed._meta }),
    });
    this.remoteName = listed.name;
  }

  /** The tool's name at the upstream. */
  readonly remoteName: string;

  #compiled?: ReturnType<Tool['compiled']>;

  /** As {@link Tool.compiled} (the listed schema is the upstream's), with arguments passed on unchecked. */
  override compiled(): ReturnType<Tool['compiled']> {
    if (this.#compiled) return this.#compiled;
    const own = super.compiled();
    const input: CompiledSchema = { json: own.input.json, validate: passArguments };
    this.#compiled = { ...own, input };
    return this.#compiled;
  }

  execute(args: Record<string, unknown>, context: ToolContext): Promise<CallToolResult> {
    return this.forwarder.callTool(this.remoteName, args, context);
  }
}

/** The upstream checks the arguments; a call without any sends `{}`, as a local tool gets. */
function passArguments(value: unknown) {
  return { ok: true as const, value: value ?? {} };
}

/**
 * The mirror entries of an upstream's `tools/list`: each builds an {@link UpstreamTool} (without its
 * `outputSchema` when that one does not compile here, so the tool stays usable).
 */
export function upstreamToolEntries(
  namespace: string,
  listed: readonly ListedTool[],
  forwarder: ToolForwarder,
): MirroredEntry[] {
  return listed.map((tool) => ({
    key: tool.name,
    signature: JSON.stringify(tool),
    create: () => {
      const local = namespacedName(namespace, tool.name);
      const full = new UpstreamTool(tool, local, forwarder, true);
      try {
        full.compiled();
        return full;
      } catch {
        return new UpstreamTool(tool, local, forwarder, false);
      }
    },
  }));
}
