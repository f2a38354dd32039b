import type { Logger } from '../logger.js';
import type { Tool } from '../registry/tool.js';
import type { ToolRegistry } from '../registry/tool-registry.js';

/** One tool a source offers, as the mirror compares it. */
export interface MirroredEntry {
  /** The tool's name at its source (unique per source). */
  readonly key: string;
  /** Changes whenever what clients would see of the tool changes (e.g. its JSON listing). */
  readonly signature: string;
  /** Builds the local tool. May throw (a name or schema this server cannot serve): the tool is left out. */
  create(): Tool<never>;
}

/**
 * Keeps one package of a registry equal to a source's inventory (an upstream server's tools, a
 * mounted server's enabled tools): every {@link sync} is at most ONE registry change, so each
 * client is told once, and a tool whose listing did not change keeps its object (and its toggles).
 * A tool the registry cannot take (its name is taken by a local tool, its schema does not compile)
 * is left out with one warning per sync.
 */
export class ToolMirror {
  readonly #current = new Map<string, { tool: Tool<never>; signature: string }>();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly packageName: string,
    private readonly logger: Logger,
  ) {}

  /** Names (local) of the tools mirrored now, in source order. */
  get names(): string[] {
    return [...this.#current.values()].map(({ tool }) => tool.name);
  }

  /** The local tool mirroring the source's `key`, if it is registered. */
  get(key: string): Tool<never> | undefined {
    return this.#current.get(key)?.tool;
  }

  /** Makes the package equal to `entries` in one change (none when nothing differs). */
  sync(entries: readonly MirroredEntry[]): void {
    const wanted = new Map(entries.map((entry) => [entry.key, entry]));
    const removed: Tool<never>[] = [];
    for (const [key, { tool, signature }] of this.#current) {
      if (wanted.get(key)?.signature !== signature) removed.push(tool);
    }
    const added: Array<{ key: string; signature: string; tool: Tool<never> }> = [];
    for (const entry of wanted.values()) {
      if (this.#current.get(entry.key)?.signature === entry.signature) continue;
      try {
        const tool = entry.create();
        tool.compiled();
        added.push({ key: entry.key, signature: entry.signature, tool });
      } catch (error) {
        this.logger.warn({ err: error, package: this.packageName, tool: entry.key }, 'tool left out: unusable here');
      }
    }
    for (const key of [...this.#current.keys()]) {
      if (wanted.get(key)?.signature !== this.#current.get(key)?.signature) this.#current.delete(key);
    }
    const skipped = new Set(
      this.registry.replace(
        removed,
        added.map(({ tool }) => tool),
        this.packageName,
      ),
    );
    for (const { key, signature, tool } of added) {
      if (skipped.has(tool)) {
        this.logger.warn(
          { package: this.packageName, tool: tool.name },
          'tool left out: its name is already registered',
        );
      } else this.#current.set(key, { tool, signature });
    }
  }

  /** Removes every mirrored tool (one change). */
  clear(): void {
    this.sync([]);
  }
}
