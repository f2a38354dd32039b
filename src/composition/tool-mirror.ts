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

/** A tool of a source left out because its name is already registered here. */
export interface NameConflict {
  /** The tool's name here (namespaced). */
  readonly name: string;
  /** The package holding the name (an upstream's or mount's name, a `ToolPackage`'s), or null for a local tool outside any package. */
  readonly heldBy: string | null;
}

/**
 * Keeps one package of a registry equal to a source's inventory (an upstream server's tools, a
 * mounted server's enabled tools): every {@link sync} is at most ONE registry change, so each
 * client is told once, and a tool whose listing did not change keeps its object (and its toggles).
 * A tool whose schema does not compile is left out with a warning; one whose name is already
 * registered (a local tool, or another source's: namespaces `a` and `a_b` both make `a_b_c`) is left
 * out with an error naming both sources, and kept in {@link conflicts}; when the holder of such a name
 * leaves, the mirror syncs again so that its tool takes the name (`onResync` is then told).
 */
export class ToolMirror {
  readonly #current = new Map<string, { tool: Tool<never>; signature: string }>();
  #conflicts: readonly NameConflict[] = Object.freeze([]);
  /** The entries of the last sync (a resync after a conflicting name was freed uses them). */
  #entries: readonly MirroredEntry[] = [];
  /** Listens to the registry while there are conflicts, for their names being freed. */
  #offRegistry?: () => void;

  /** @param onResync - told after a sync the mirror made on its own (a conflicting name was freed). */
  constructor(
    private readonly registry: ToolRegistry,
    private readonly packageName: string,
    private readonly logger: Logger,
    private readonly onResync?: (conflictsBefore: readonly NameConflict[]) => void,
  ) {}

  /** Names (local) of the tools mirrored now, in source order. */
  get names(): string[] {
    return [...this.#current.values()].map(({ tool }) => tool.name);
  }

  /** The tools of the last sync left out because their name was taken (empty after {@link clear}). */
  get conflicts(): readonly NameConflict[] {
    return this.#conflicts;
  }

  /** The local tool mirroring the source's `key`, if it is registered. */
  get(key: string): Tool<never> | undefined {
    return this.#current.get(key)?.tool;
  }

  /** Makes the package equal to `entries` in one change (none when nothing differs). */
  sync(entries: readonly MirroredEntry[]): void {
    this.#entries = entries;
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
    const conflicts: NameConflict[] = [];
    const known = new Map(this.#conflicts.map((conflict) => [conflict.name, conflict]));
    for (const { key, signature, tool } of added) {
      if (skipped.has(tool)) conflicts.push(this.#conflict(tool.name, known.get(tool.name)));
      else this.#current.set(key, { tool, signature });
    }
    this.#conflicts = Object.freeze(conflicts);
    this.#watchConflicts();
  }

  /** While a name is held by another, waits for the holder to leave, then syncs again (after its change). */
  #watchConflicts(): void {
    if (this.#conflicts.length === 0) {
      this.#offRegistry?.();
      this.#offRegistry = undefined;
      return;
    }
    this.#offRegistry ??= this.registry.onChange((change) => {
      const freed = change.removed.some((tool) => this.#conflicts.some((conflict) => conflict.name === tool.name));
      if (!freed) return;
      queueMicrotask(() => {
        const before = this.#conflicts;
        if (before.length === 0) return; // cleared meanwhile
        this.sync(this.#entries);
        this.onResync?.(before);
      });
    });
  }

  /** Logs a taken name as an error naming both sources: first come keeps it, so it must never pass quietly. */
  #conflict(name: string, before: NameConflict | undefined): NameConflict {
    const holder = this.registry.snapshot().find((state) => state.tool.name === name);
    const heldBy = holder?.packageName ?? null;
    if (before?.heldBy === heldBy) return before; // logged already
    const by = heldBy === null ? 'a local tool' : `"${heldBy}"`;
    this.logger.error(
      { package: this.packageName, tool: name, heldBy },
      `tool "${name}" of "${this.packageName}" left out: ${by} already has that name (give one of them another name or namespace)`,
    );
    return { name, heldBy };
  }

  /** Removes every mirrored tool (one change). */
  clear(): void {
    this.sync([]);
  }
}
