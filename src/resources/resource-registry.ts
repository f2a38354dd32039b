import type { AuthInfo, Resource, ResourceTemplateType } from '@modelcontextprotocol/server';
import { DuplicateResourceError } from '../errors.js';
import { Listeners } from '../listeners.js';
import { admits } from '../registry/access-rule.js';
import { normalizeUri } from './uri-normalization.js';
import { compileResource, type ResourceEntry, type ResourceConfig } from './resource.js';
import {
  compileResourceTemplate,
  type ResourceTemplateEntry,
  type ResourceTemplateConfig,
  type TemplateVariables,
} from './resource-template.js';

/** What changed in a {@link ResourceRegistry}: a resource or a template was added or removed. */
export interface ResourceRegistryChange {
  readonly kind: 'resource' | 'template';
  readonly type: 'added' | 'removed';
  /** The resource URI or the URI template. */
  readonly uri: string;
  /** Every change of a batch made by {@link ResourceRegistry.replace} (this change is its first); absent for a single change. */
  readonly batch?: readonly ResourceRegistryChange[];
}

/** What {@link ResourceRegistry.replace} changes at once. */
export interface ResourceReplacement {
  /** URIs of fixed resources to remove. */
  readonly removeResources?: readonly string[];
  /** URI templates to remove. */
  readonly removeTemplates?: readonly string[];
  readonly addResources?: readonly ResourceConfig[];
  readonly addTemplates?: readonly ResourceTemplateConfig[];
  /** A URI the server keeps for something else (a document): such a resource is left out. */
  readonly isTaken?: (uri: string) => boolean;
}

/**
 * The read side of the resource model, as `server.resources` exposes it. Changes go through the
 * server (`registerResource`, `registerResourceTemplate`, ...), which checks URIs across resources,
 * templates and documents.
 */
export type ResourceRegistryView = Pick<
  ResourceRegistry,
  'get' | 'getTemplate' | 'match' | 'templates' | 'list' | 'listTemplates' | 'onChange'
>;

/**
 * The model of in-memory / computed resources and resource templates, in registration order.
 * It knows no servers (file documents live in `DocumentStore`). Views read it on every request;
 * the server listens to {@link ResourceRegistry.onChange} to send
 * `notifications/resources/list_changed`, once per change.
 */
export class ResourceRegistry {
  readonly #resources = new Map<string, ResourceEntry>();
  readonly #templates = new Map<string, ResourceTemplateEntry>();
  readonly #listeners = new Listeners<ResourceRegistryChange>();
  #listCache?: readonly Readonly<Resource>[];
  #templateListCache?: readonly Readonly<ResourceTemplateType>[];
  /** Whether some resource or template has an access rule (listing filters only then). */
  #ruled = false;

  /**
   * Adds a resource at a fixed URI.
   * @throws DuplicateResourceError when the URI is taken.
   * @throws InvalidResourceError when the configuration is unusable.
   */
  register(config: ResourceConfig): ResourceEntry {
    const resource = compileResource(config);
    const key = normalizeUri(resource.listed.uri);
    if (this.#resources.has(key)) throw new DuplicateResourceError(resource.listed.uri);
    this.#resources.set(key, resource);
    this.#changed({ kind: 'resource', type: 'added', uri: resource.listed.uri });
    return resource;
  }

  /**
   * Adds a resource template.
   * @throws DuplicateResourceError when the same URI template string is taken.
   * @throws InvalidResourceError when the configuration is unusable.
   */
  registerTemplate(config: ResourceTemplateConfig): ResourceTemplateEntry {
    const template = compileResourceTemplate(config);
    const key = normalizeUri(template.listed.uriTemplate);
    if (this.#templates.has(key)) throw new DuplicateResourceError(template.listed.uriTemplate, 'resource template');
    this.#templates.set(key, template);
    this.#changed({ kind: 'template', type: 'added', uri: template.listed.uriTemplate });
    return template;
  }

  /** Removes the resource at `uri`; false (no change event) when there is none. */
  remove(uri: string): boolean {
    if (!this.#resources.delete(normalizeUri(uri))) return false;
    this.#changed({ kind: 'resource', type: 'removed', uri });
    return true;
  }

  /** Removes the template registered with this exact URI template; false when there is none. */
  removeTemplate(uriTemplate: string): boolean {
    if (!this.#templates.delete(normalizeUri(uriTemplate))) return false;
    this.#changed({ kind: 'template', type: 'removed', uri: uriTemplate });
    return true;
  }

  /**
   * Removes and adds resources and templates as ONE change (one `list_changed`), for a source kept
   * in step with another server (composition). An added resource or template whose URI (template)
   * is registered after the removals, or `isTaken`, is left out and returned, not thrown.
   * @throws InvalidResourceError when an added configuration is unusable (nothing is changed then).
   */
  replace(change: ResourceReplacement): { skipped: string[] } {
    const resources = (change.addResources ?? []).map(compileResource);
    const templates = (change.addTemplates ?? []).map(compileResourceTemplate);
    const batch: ResourceRegistryChange[] = [];
    for (const uri of change.removeResources ?? []) {
      if (this.#resources.delete(normalizeUri(uri))) batch.push({ kind: 'resource', type: 'removed', uri });
    }
    for (const uri of change.removeTemplates ?? []) {
      if (this.#templates.delete(normalizeUri(uri))) batch.push({ kind: 'template', type: 'removed', uri });
    }
    const skipped: string[] = [];
    for (const resource of resources) {
      const { uri } = resource.listed;
      const key = normalizeUri(uri);
      if (this.#resources.has(key) || change.isTaken?.(uri)) skipped.push(uri);
      else {
        this.#resources.set(key, resource);
        batch.push({ kind: 'resource', type: 'added', uri });
      }
    }
    for (const template of templates) {
      const { uriTemplate } = template.listed;
      const key = normalizeUri(uriTemplate);
      if (this.#templates.has(key)) skipped.push(uriTemplate);
      else {
        this.#templates.set(key, template);
        batch.push({ kind: 'template', type: 'added', uri: uriTemplate });
      }
    }
    if (batch.length > 0) this.#changed({ ...batch[0]!, batch });
    return { skipped };
  }

  /** The resource registered at this URI or an equivalent one (see `normalizeUri`). */
  get(uri: string): ResourceEntry | undefined {
    return this.#resources.get(normalizeUri(uri));
  }

  /** The template registered with this URI template string or an equivalent one (as `completion/complete` refers to it). */
  getTemplate(uriTemplate: string): ResourceTemplateEntry | undefined {
    return this.#templates.get(normalizeUri(uriTemplate));
  }

  /**
   * The first template (in registration order) matching `uri`, with the matched variables. The
   * URI is matched in its normal form (see `normalizeUri`, so `%7E` and `~` bind the same value),
   * then as given.
   */
  match(uri: string): { template: ResourceTemplateEntry; variables: TemplateVariables } | undefined {
    const normal = normalizeUri(uri);
    for (const template of this.#templates.values()) {
      const variables = template.match(normal) ?? (normal === uri ? undefined : template.match(uri));
      if (variables) return { template, variables };
    }
    return undefined;
  }

  /** Every registered template in registration order. */
  templates(): readonly ResourceTemplateEntry[] {
    return [...this.#templates.values()];
  }

  /** `resources/list` entries of the fixed resources; cached until the next change. */
  list(): readonly Readonly<Resource>[] {
    this.#listCache ??= Object.freeze([...this.#resources.values()].map((resource) => resource.listed));
    return this.#listCache;
  }

  /** `resources/templates/list` entries; cached until the next change. */
  listTemplates(): readonly Readonly<ResourceTemplateType>[] {
    this.#templateListCache ??= Object.freeze([...this.#templates.values()].map((template) => template.listed));
    return this.#templateListCache;
  }

  /** {@link list} without the resources whose access rule (`canAccess` / `requiredScopes`) refuses `auth`. */
  listFor(auth: AuthInfo | undefined): readonly Readonly<Resource>[] {
    if (!this.#ruled) return this.list();
    return [...this.#resources.values()].filter((r) => admits(r.access, auth)).map((r) => r.listed);
  }

  /** {@link listTemplates} without the templates whose access rule refuses `auth`. */
  listTemplatesFor(auth: AuthInfo | undefined): readonly Readonly<ResourceTemplateType>[] {
    if (!this.#ruled) return this.listTemplates();
    return [...this.#templates.values()].filter((t) => admits(t.access, auth)).map((t) => t.listed);
  }

  /** Calls `listener` after each change; returns an unsubscribe function. */
  onChange(listener: (change: ResourceRegistryChange) => void): () => void {
    return this.#listeners.add(listener);
  }

  #changed(change: ResourceRegistryChange): void {
    this.#listCache = undefined;
    this.#templateListCache = undefined;
    this.#ruled = [...this.#resources.values(), ...this.#templates.values()].some((entry) => entry.access);
    this.#listeners.emit(change);
  }
}
