import { formatInventory, type Inventory } from '../client/inventory.js';

/** The server as the dev client met it. */
export interface ServerIdentity {
  name: string;
  version: string;
  protocol?: string;
  pid?: number;
}

type ListKind = 'tools' | 'resources' | 'prompts';
type Named = { name: string; uri?: string };

const clock = () => new Date().toTimeString().slice(0, 8);

/**
 * The terminal view of `mcp-toolkit dev`: what one connected client sees, printed as plain lines
 * (so it reads the same in a terminal, a log file or a pipe). {@link show} prints the whole
 * inventory after each (re)connection; {@link changed} prints one line per list change: what was
 * added (`+name`) and removed (`-name`), or `~` when only definitions changed, then the new names.
 */
export class LiveView {
  #inventory: Inventory | undefined;

  constructor(private readonly out: (line: string) => void) {}

  /**
   * Prints the server's name and everything it offers; after a restart, first one line per list
   * that differs from what the previous connection saw.
   */
  show(server: ServerIdentity, inventory: Inventory): void {
    const previous = this.#inventory;
    this.#inventory = inventory;
    const details = [server.protocol && `protocol ${server.protocol}`, server.pid && `pid ${server.pid}`];
    this.out(`● connected to ${server.name} ${server.version} (${details.filter(Boolean).join(', ')})`);
    if (previous) {
      for (const kind of KINDS) {
        const line = changeLine(kind, previous[kind], inventory[kind], 'since the restart');
        if (line) this.out(line);
      }
    }
    for (const line of formatInventory(inventory)) this.out(`  ${line}`);
  }

  /** Prints one line for a list change the server announced, with the list as it is now. */
  changed(kind: ListKind, items: Named[]): void {
    if (!this.#inventory) return;
    const before = this.#inventory[kind];
    (this.#inventory as Record<ListKind, Named[]>)[kind] = items;
    this.out(
      changeLine(kind, before, items) ?? `${clock()} ${kind} changed: ~ definitions changed (now ${items.length})`,
    );
  }
}

const KINDS: readonly ListKind[] = ['tools', 'resources', 'prompts'];

/**
 * `HH:MM:SS tools changed: +added -removed (now n: a, b)`; `~` when only definitions changed;
 * undefined when `before` and `after` are equal.
 */
function changeLine(kind: ListKind, before: Named[], after: Named[], when?: string): string | undefined {
  const key = (item: Named) => (kind === 'resources' ? (item.uri ?? item.name) : item.name);
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  const had = new Set(before.map(key));
  const has = new Set(after.map(key));
  const added = after.filter((item) => !had.has(key(item))).map((item) => `+${item.name}`);
  const removed = before.filter((item) => !has.has(key(item))).map((item) => `-${item.name}`);
  const diff = [...added, ...removed].join(' ') || '~ definitions changed';
  const names = after.map((item) => item.name).join(', ');
  return `${clock()} ${kind} changed${when ? ` ${when}` : ''}: ${diff} (now ${after.length}${names ? `: ${names}` : ''})`;
}
