import { UriTemplate, type Resource, type ResourceTemplateType } from '@modelcontextprotocol/server';
import { completeFromList, type CompleteFunction } from '../completions/completion.js';
import { InvalidResourceError } from '../errors.js';
import { accessRuleOf, type AccessRule } from '../registry/access-rule.js';
import type { ResourceReadReturn } from './resource-contents.js';
import { checkResourceBasics, listedMetadata, type ResourceContext, type ResourceInfo } from './resource.js';
import { normalizeUri, normalizeUriPart } from './uri-normalization.js';

/**
 * Values of a template's variables matched from a URI, percent-decoded. An exploded variable
 * (`{/path*}`) holding several comma-separated values is a `string[]`.
 */
export type TemplateVariables = Readonly<Record<string, string | string[]>>;

/**
 * A family of resources addressed by an RFC 6570 URI template (MCP "Resource Templates"),
 * e.g. `notes://{folder}/{name}`. Its URIs are read by `read` (after exact resources and
 * documents), offered in `resources/templates/list`, and its variables complete through
 * `completion/complete` with `ref: { type: 'ref/resource', uri: uriTemplate }`.
 */
export interface ResourceTemplateConfig extends ResourceInfo {
  /** RFC 6570 template with at least one `{variable}`; unique per server. */
  uriTemplate: string;
  /**
   * Completion per variable: a `CompleteFunction`, or a fixed list (suggesting the entries that
   * start with the typed text, case-insensitively). Keys must be variables of the template.
   */
  complete?: Readonly<Record<string, CompleteFunction | readonly string[]>>;
  /**
   * Concrete resources of this template to show in `resources/list` (after documents and
   * fixed resources). Missing fields default to the template's `mimeType`, `icons`, etc.
   */
  list?(context: ResourceContext): readonly Resource[] | Promise<readonly Resource[]>;
  /** Produces the content of a matching URI. A thrown error is sent as JSON-RPC -32603. */
  read(
    uri: string,
    variables: TemplateVariables,
    context: ResourceContext,
  ): ResourceReadReturn | Promise<ResourceReadReturn>;
}

/** A registered template: its configuration, listing entry, URI matcher and completers. */
export interface ResourceTemplateEntry {
  readonly config: ResourceTemplateConfig;
  readonly listed: Readonly<ResourceTemplateType>;
  /** `requiredScopes` and `canAccess` combined (see `accessRuleOf`); undefined when it has neither. */
  readonly access?: AccessRule;
  /** The variables when `uri` matches the template, else `undefined`. */
  match(uri: string): TemplateVariables | undefined;
  /** The completer of one variable, if any. */
  completer(variable: string): CompleteFunction | undefined;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A URI template with its literal parts in URI normal form (RFC 3986 section 6.2.2, as
 * `normalizeUri`); the `{...}` expressions are left as they are (variable names keep their case).
 */
function normalizeTemplateLiterals(uriTemplate: string): string {
  const parts = uriTemplate.split(/(\{[^}]*\})/);
  return parts
    .map((part, index) => (index % 2 === 1 ? part : index === 0 ? normalizeUri(part) : normalizeUriPart(part)))
    .join('');
}

/**
 * Validates a template configuration and compiles its URI template.
 * @throws InvalidResourceError for a malformed template, one without variables, an empty
 *   name, a missing `read`, or a `complete` key that is not a template variable; TypeError when
 *   `requiredScopes` is not an array of scope names.
 */
export function compileResourceTemplate(config: ResourceTemplateConfig): ResourceTemplateEntry {
  const label = `Resource template ${JSON.stringify(config?.uriTemplate)}`;
  let template: UriTemplate;
  try {
    template = new UriTemplate(String(config?.uriTemplate));
  } catch (error) {
    throw new InvalidResourceError(`${label} is not a valid RFC 6570 URI template: ${(error as Error).message}`);
  }
  if (!UriTemplate.isTemplate(config.uriTemplate)) {
    throw new InvalidResourceError(`${label} has no {variable}; register a fixed URI with registerResource().`);
  }
  checkResourceBasics(config, label);
  const variables = new Set(template.variableNames);
  const completers = new Map<string, CompleteFunction>();
  for (const [name, complete] of Object.entries(config.complete ?? {})) {
    if (!variables.has(name)) {
      throw new InvalidResourceError(`${label} has a completion for "${name}", which is not one of its variables.`);
    }
    completers.set(name, typeof complete === 'function' ? complete : completeFromList(complete));
  }
  // URIs are matched in their normal form (see `normalizeUri`), so the literals must be in it too:
  // `docs://café/{name}` matches `docs://caf%C3%A9/x`.
  const normalTemplate = normalizeTemplateLiterals(config.uriTemplate);
  const normal = normalTemplate === config.uriTemplate ? template : new UriTemplate(normalTemplate);
  const listed: ResourceTemplateType = { uriTemplate: config.uriTemplate, ...listedMetadata(config) };
  const access = accessRuleOf(label, config.requiredScopes, config.canAccess);
  return Object.freeze({
    config,
    listed: Object.freeze(listed),
    ...(access && { access }),
    match(uri: string) {
      let matched: ReturnType<UriTemplate['match']>;
      try {
        matched = normal.match(uri) ?? (normal === template ? null : template.match(uri));
      } catch {
        return undefined; // over-long URI: no match
      }
      if (!matched) return undefined;
      const decoded: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(matched)) {
        decoded[name] = Array.isArray(value) ? value.map(decode) : decode(value);
      }
      return decoded;
    },
    completer: (variable: string) => completers.get(variable),
  });
}
