import type { AuthInfo, Prompt as WirePrompt } from '@modelcontextprotocol/server';
import { admits } from '../registry/access-rule.js';
import { DuplicatePromptError, InvalidPromptError } from '../errors.js';
import { Listeners } from '../listeners.js';
import { Prompt } from './prompt.js';

/** What changed in a {@link PromptRegistry}: prompts added or removed by one call. */
export interface PromptRegistryChange {
  readonly added: readonly Prompt<never>[];
  readonly removed: readonly string[];
}

/** The read side of the prompt model, as `server.prompts` exposes it (changes go through `registerPrompt` / `removePrompt`). */
export type PromptRegistryView = Pick<PromptRegistry, 'get' | 'prompts' | 'size' | 'list' | 'onChange'>;

/**
 * The prompt model: every registered prompt in registration order. It knows no servers; views
 * read it on every request and the server listens to {@link PromptRegistry.onChange} to send
 * `notifications/prompts/list_changed`. Listeners fire once per call that changed the list.
 */
export class PromptRegistry {
  readonly #prompts = new Map<string, Prompt<never>>();
  readonly #listeners = new Listeners<PromptRegistryChange>();
  #listCache?: readonly Readonly<WirePrompt>[];
  /** How many registered prompts have an access rule (listing filters only then). */
  #ruled = 0;

  /**
   * Adds prompts, all-or-nothing.
   * @throws DuplicatePromptError when a name is already registered (or repeated in the call).
   * @throws InvalidPromptError when an item is not a `Prompt` (use `definePrompt` for plain objects).
   */
  register(...prompts: Prompt<never>[]): void {
    const seen = new Set<string>();
    for (const prompt of prompts) {
      if (!(prompt instanceof Prompt)) {
        throw new InvalidPromptError('PromptRegistry.register() expects Prompt instances (see definePrompt()).');
      }
      if (this.#prompts.has(prompt.name) || seen.has(prompt.name)) throw new DuplicatePromptError(prompt.name);
      seen.add(prompt.name);
    }
    for (const prompt of prompts) this.#prompts.set(prompt.name, prompt);
    if (prompts.length > 0) this.#changed({ added: prompts, removed: [] });
  }

  /** Removes a prompt; returns false (and notifies nobody) when no prompt has that name. */
  remove(name: string): boolean {
    if (!this.#prompts.delete(name)) return false;
    this.#changed({ added: [], removed: [name] });
    return true;
  }

  /**
   * Removes the prompts named `removed` and adds `added` as ONE change (one `list_changed`), for a
   * source kept in step with another server (composition). A prompt of `added` whose name is
   * registered after the removals is left out and returned, not thrown.
   * @throws InvalidPromptError when an item of `added` is not a `Prompt`.
   */
  replace(removed: readonly string[], added: readonly Prompt<never>[]): Prompt<never>[] {
    const gone = removed.filter((name) => this.#prompts.delete(name));
    const taken: Prompt<never>[] = [];
    const kept: Prompt<never>[] = [];
    for (const prompt of added) {
      if (!(prompt instanceof Prompt))
        throw new InvalidPromptError('PromptRegistry.replace() expects Prompt instances.');
      if (this.#prompts.has(prompt.name)) taken.push(prompt);
      else {
        this.#prompts.set(prompt.name, prompt);
        kept.push(prompt);
      }
    }
    if (gone.length > 0 || kept.length > 0) this.#changed({ added: kept, removed: gone });
    return taken;
  }

  /** The prompt with this name. */
  get(name: string): Prompt<never> | undefined {
    return this.#prompts.get(name);
  }

  /** The prompt with this name if the caller `auth` may use it (its `canAccess` / `requiredScopes`). */
  getFor(name: string, auth: AuthInfo | undefined): Prompt<never> | undefined {
    const prompt = this.#prompts.get(name);
    return prompt && admits(prompt.canAccess, auth) ? prompt : undefined;
  }

  /** Every registered prompt in registration order. */
  prompts(): readonly Prompt<never>[] {
    return [...this.#prompts.values()];
  }

  /** Number of registered prompts. */
  get size(): number {
    return this.#prompts.size;
  }

  /**
   * `prompts/list` entries in registration order (cached until the next change), without the
   * prompts whose access rule refuses `auth` when any prompt has one.
   */
  list(auth?: AuthInfo): readonly Readonly<WirePrompt>[] {
    this.#listCache ??= Object.freeze([...this.#prompts.values()].map((prompt) => prompt.compiled().listed));
    if (this.#ruled === 0) return this.#listCache;
    return [...this.#prompts.values()].filter((p) => admits(p.canAccess, auth)).map((p) => p.compiled().listed);
  }

  /** Calls `listener` after each change; returns an unsubscribe function. */
  onChange(listener: (change: PromptRegistryChange) => void): () => void {
    return this.#listeners.add(listener);
  }

  #changed(change: PromptRegistryChange): void {
    this.#listCache = undefined;
    this.#ruled = [...this.#prompts.values()].filter((prompt) => prompt.canAccess).length;
    this.#listeners.emit(change);
  }
}
