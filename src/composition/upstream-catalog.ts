import {
  UriTemplate,
  type CompleteResult,
  type GetPromptResult,
  type Prompt as ListedPrompt,
  type ReadResourceResult,
  type Resource as ListedResource,
  type ResourceTemplateType as ListedTemplate,
} from '@modelcontextprotocol/server';
import type { CompleteFunction } from '../completions/completion.js';
import type { Logger } from '../logger.js';
import { Prompt, type PromptContext } from '../prompts/prompt.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import type { RequestContext } from '../registry/request-context.js';
import type { ResourceConfig } from '../resources/resource.js';
import type { ResourceRegistry } from '../resources/resource-registry.js';
import type { ResourceTemplateConfig } from '../resources/resource-template.js';
import { namespacedName } from './namespace.js';

/** What a completion request names: an upstream prompt (by its upstream name) or resource template. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** What the mirrored prompts, resources and templates need from their upstream connection. */
export interface CatalogForwarder {
  getPrompt(name: string, args: Record<string, string>, context: RequestContext): Promise<GetPromptResult>;
  readResource(uri: string, context: RequestContext): Promise<ReadResourceResult>;
  complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context: RequestContext & { arguments: Readonly<Record<string, string>> },
  ): Promise<CompleteResult>;
}

/** The upstream's `completion/complete` as a local completer of one argument or template variable. */
function completer(forwarder: CatalogForwarder, ref: CompletionRef, name: string): CompleteFunction {
  return async (value, context) => (await forwarder.complete(ref, { name, value }, context)).completion;
}

/** An upstream prompt under `<namespace>_<name>`; `prompts/get` is forwarded with the upstream's own name. */
class UpstreamPrompt extends Prompt {
  constructor(
    listed: ListedPrompt,
    name: string,
    private readonly forwarder: CatalogForwarder,
    completions: boolean,
  ) {
    const ref: CompletionRef = { type: 'ref/prompt', name: listed.name };
    super({
      name,
      ...(listed.title !== undefined && { title: listed.title }),
      ...(listed.description !== undefined && { description: listed.description }),
      arguments: (listed.arguments ?? []).map((argument) => ({
        name: argument.name,
        ...(argument.description !== undefined && { description: argument.description }),
        ...(argument.required !== undefined && { required: argument.required }),
        ...(completions && { complete: completer(forwarder, ref, argument.name) }),
      })),
      ...(listed.icons !== undefined && { icons: listed.icons }),
      ...(listed._meta !== undefined && { _meta: listed._meta }),
    });
    this.remoteName = listed.name;
  }

  /** The prompt's name at the upstream. */
  readonly remoteName: string;

  load(args: Record<string, string>, context: PromptContext): Promise<GetPromptResult> {
    return this.forwarder.getPrompt(this.remoteName, args, context);
  }
}

const signature = (value: unknown) => JSON.stringify(value);

/**
 * Keeps an upstream's prompts, resources and resource templates in the server's prompt and
 * resource registries: prompts namespaced like tools, resources and templates under their own
 * URIs (so links in the upstream's results keep working). Each sync is at most ONE change of the
 * registry it touches (clients told once); an entry whose listing did not change stays as it is.
 * A name or URI already taken (a local one, another upstream's, a document) is left out with a warning.
 */
export class CatalogMirror {
  readonly #prompts = new Map<string, { prompt: Prompt<never>; signature: string }>();
  /** Mirrored resources and templates: URI (template) -> listing signature. */
  readonly #resources = new Map<string, string>();
  readonly #templates = new Map<string, string>();
  /** The configs of the resources and templates this mirror added (as the registry keeps them). */
  readonly #owned = new WeakSet<object>();

  constructor(
    private readonly registries: { prompts: PromptRegistry; resources: ResourceRegistry },
    private readonly namespace: string,
    private readonly logger: Logger,
    /** A URI the server keeps for something else (a document). */
    private readonly isTaken: (uri: string) => boolean = () => false,
  ) {}

  /** How many prompts, resources and templates are mirrored now. */
  get counts(): { prompts: number; resources: number; templates: number } {
    return { prompts: this.#prompts.size, resources: this.#resources.size, templates: this.#templates.size };
  }

  /**
   * Whether `uri` is served here by this upstream: a mirrored resource with that URI, or else (no
   * document has it) a mirrored template matching it first, in the order `resources/read` looks.
   */
  serves(uri: string): boolean {
    const { resources } = this.registries;
    const exact = resources.get(uri);
    if (exact) return this.#owned.has(exact.config);
    if (this.isTaken(uri)) return false;
    const matched = resources.match(uri);
    return matched !== undefined && this.#owned.has(matched.template.config);
  }

  /** Makes the mirrored prompts equal to `listed` (one change, none when nothing differs). */
  syncPrompts(listed: readonly ListedPrompt[], forwarder: CatalogForwarder, completions: boolean): void {
    const wanted = new Map(listed.map((prompt) => [prompt.name, prompt]));
    const removed: string[] = [];
    for (const [key, { prompt, signature: old }] of this.#prompts) {
      const next = wanted.get(key);
      if (next && signature(next) === old) wanted.delete(key);
      else {
        removed.push(prompt.name);
        this.#prompts.delete(key);
      }
    }
    const added: Array<{ key: string; prompt: Prompt<never>; signature: string }> = [];
    for (const [key, prompt] of wanted) {
      try {
        const local = new UpstreamPrompt(prompt, namespacedName(this.namespace, key), forwarder, completions);
        added.push({ key, prompt: local as Prompt<never>, signature: signature(prompt) });
      } catch (error) {
        this.logger.warn({ err: error, prompt: key }, 'upstream prompt left out: unusable here');
      }
    }
    const taken = new Set(
      this.registries.prompts.replace(
        removed,
        added.map(({ prompt }) => prompt),
      ),
    );
    for (const entry of added) {
      if (taken.has(entry.prompt)) {
        this.logger.warn({ prompt: entry.prompt.name }, 'upstream prompt left out: its name is already registered');
      } else this.#prompts.set(entry.key, { prompt: entry.prompt, signature: entry.signature });
    }
  }

  /** Makes the mirrored resources and templates equal to the upstream's (one change, none when nothing differs). */
  syncResources(
    resources: readonly ListedResource[],
    templates: readonly ListedTemplate[],
    forwarder: CatalogForwarder,
    completions: boolean,
  ): void {
    const changedResources = this.#diff(
      this.#resources,
      resources.map((r) => [r.uri, signature(r)] as const),
    );
    const changedTemplates = this.#diff(
      this.#templates,
      templates.map((t) => [t.uriTemplate, signature(t)] as const),
    );
    const read = (uri: string, context: RequestContext) => forwarder.readResource(uri, context);
    const addResources: ResourceConfig[] = resources
      .filter((resource) => changedResources.added.has(resource.uri))
      .map(({ uri, ...listed }) => ({ ...listed, uri, read }));
    const addTemplates: ResourceTemplateConfig[] = [];
    for (const { uriTemplate, ...listed } of templates) {
      if (!changedTemplates.added.has(uriTemplate)) continue;
      let variables: string[] = [];
      try {
        variables = new UriTemplate(uriTemplate).variableNames;
      } catch {
        // compiled (and refused with a warning) below
      }
      const ref: CompletionRef = { type: 'ref/resource', uri: uriTemplate };
      addTemplates.push({
        ...listed,
        uriTemplate,
        ...(completions && {
          complete: Object.fromEntries(variables.map((name) => [name, completer(forwarder, ref, name)])),
        }),
        read: (uri, _variables, context) => read(uri, context),
      });
    }
    for (const config of [...addResources, ...addTemplates]) this.#owned.add(config);
    let skipped: string[] = [];
    try {
      ({ skipped } = this.registries.resources.replace({
        removeResources: changedResources.removed,
        removeTemplates: changedTemplates.removed,
        addResources,
        addTemplates,
        isTaken: this.isTaken,
      }));
    } catch (error) {
      // One unusable entry (say, a relative URI) must not keep the others out: add them one by one.
      this.logger.warn({ err: error }, 'an upstream resource is unusable here; adding the others one by one');
      this.registries.resources.replace({
        removeResources: changedResources.removed,
        removeTemplates: changedTemplates.removed,
      });
      skipped = this.#addOneByOne(addResources, addTemplates);
    }
    for (const uri of skipped) {
      this.#resources.delete(uri);
      this.#templates.delete(uri);
      this.logger.warn({ uri }, 'upstream resource left out: its URI is already served here');
    }
  }

  /** Removes everything mirrored (at most one change per registry). */
  clear(): void {
    this.syncPrompts([], undefined as never, false);
    this.syncResources([], [], undefined as never, false);
  }

  /** Updates `current` to `next`; returns the keys to remove from and add to the registry. */
  #diff(current: Map<string, string>, next: ReadonlyArray<readonly [string, string]>) {
    const wanted = new Map(next);
    const removed: string[] = [];
    for (const [key, old] of current) {
      if (wanted.get(key) === old) wanted.delete(key);
      else {
        removed.push(key);
        current.delete(key);
      }
    }
    for (const [key, value] of wanted) current.set(key, value);
    return { removed, added: new Set(wanted.keys()) };
  }

  #addOneByOne(resources: ResourceConfig[], templates: ResourceTemplateConfig[]): string[] {
    const skipped: string[] = [];
    const add = (key: string, change: Parameters<ResourceRegistry['replace']>[0]) => {
      try {
        skipped.push(...this.registries.resources.replace({ ...change, isTaken: this.isTaken }).skipped);
      } catch (error) {
        this.logger.warn({ err: error, uri: key }, 'upstream resource left out: unusable here');
        skipped.push(key);
      }
    };
    for (const resource of resources) add(resource.uri, { addResources: [resource] });
    for (const template of templates) add(template.uriTemplate, { addTemplates: [template] });
    return skipped;
  }
}
