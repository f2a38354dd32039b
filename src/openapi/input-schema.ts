import { RecursiveDefs, toJsonSchema } from './json-schema.js';
import type { MediaTypeObject, ParameterObject, RequestBodyObject, SchemaNode } from './spec-types.js';

/** How one tool argument maps back onto the HTTP request. */
export interface ArgumentPlan {
  /** The argument's name in the tool's input (the parameter name, or `in_name` when two locations share it). */
  readonly argument: string;
  readonly parameter: ParameterObject;
}

/** How the request body is sent, when the operation takes one. */
export interface BodyPlan {
  /** The argument that holds the body (`body`, or `requestBody` when a parameter is named `body`). */
  readonly argument: string;
  /** The media type sent as `Content-Type`, chosen from the spec's `requestBody.content`. */
  readonly mediaType: string;
  /** `json`, `form` (urlencoded), `multipart`, `text`, or `binary` (the argument is base64). */
  readonly encoding: 'json' | 'form' | 'multipart' | 'text' | 'binary';
  /** Multipart fields that are files (`format: binary`): given as base64, sent as file parts. */
  readonly files?: readonly string[];
}

/** An operation's tool input: the JSON Schema and how each argument goes back into the request. */
export interface InputPlan {
  readonly schema: SchemaNode;
  readonly arguments: readonly ArgumentPlan[];
  readonly body?: BodyPlan;
}

/** Header parameters OpenAPI says to ignore: the client sets them (OpenAPI 3.x "Parameter Object", `in`). */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

function isJsonMedia(mediaType: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\b/i.test(mediaType);
}

/** JSON first (what a model writes best), then forms, then text, then raw bytes. */
function pickBody(content: Record<string, MediaTypeObject>): { mediaType: string; encoding: BodyPlan['encoding'] } {
  const types = Object.keys(content);
  const json = types.find(isJsonMedia);
  if (json) return { mediaType: json, encoding: 'json' };
  const form = types.find((type) => /^application\/x-www-form-urlencoded\b/i.test(type));
  if (form) return { mediaType: form, encoding: 'form' };
  const multipart = types.find((type) => /^multipart\/form-data\b/i.test(type));
  if (multipart) return { mediaType: multipart, encoding: 'multipart' };
  const text = types.find((type) => /^text\/|\/xml\b|\+xml\b/i.test(type));
  if (text) return { mediaType: text, encoding: 'text' };
  return { mediaType: types[0] ?? 'application/octet-stream', encoding: 'binary' };
}

function parameterSchema(parameter: ParameterObject, recursive: RecursiveDefs): SchemaNode {
  const raw = parameter.schema ?? Object.values(parameter.content ?? {})[0]?.schema ?? {};
  const schema = toJsonSchema(raw, { direction: 'request', recursive });
  const described: SchemaNode = { ...schema };
  if (parameter.description && described.description === undefined) described.description = parameter.description;
  if (parameter.deprecated) described.deprecated = true;
  return described;
}

/** Multipart file fields (`type: string, format: binary`): a model can only send them as base64 text. */
function fileFields(schema: SchemaNode): string[] {
  const properties = (schema.properties ?? {}) as Record<string, SchemaNode>;
  return Object.keys(properties).filter((name) => {
    const field = properties[name]!;
    return (
      field.format === 'binary' ||
      field.contentEncoding === 'base64' ||
      (field.type === 'string' && field.contentMediaType !== undefined)
    );
  });
}

function asBase64Files(schema: SchemaNode): void {
  const properties = (schema.properties ?? {}) as Record<string, SchemaNode>;
  for (const name of fileFields(schema)) {
    const { format: _binary, ...field } = properties[name]!;
    properties[name] = {
      ...field,
      type: 'string',
      contentEncoding: 'base64',
      description: field.description ?? `The file ${name}, base64-encoded.`,
    };
  }
}

function bodySchema(
  body: RequestBodyObject,
  plan: Pick<BodyPlan, 'mediaType' | 'encoding'>,
  recursive: RecursiveDefs,
): SchemaNode {
  if (plan.encoding === 'binary') {
    return {
      type: 'string',
      contentEncoding: 'base64',
      contentMediaType: plan.mediaType,
      description: body.description ?? `The ${plan.mediaType} body, base64-encoded.`,
    };
  }
  const raw = body.content?.[plan.mediaType]?.schema ?? {};
  const schema = toJsonSchema(raw, { direction: 'request', recursive });
  if (plan.encoding === 'multipart') asBase64Files(schema);
  return body.description && schema.description === undefined ? { ...schema, description: body.description } : schema;
}

/**
 * Builds an operation's tool input schema: one property per path, query, header and cookie
 * parameter (named as in the spec; `in_name`, e.g. `query_id`, when two locations share a
 * name) and the request body under `body`, with `required` from the spec (path parameters are
 * always required). `Accept`, `Content-Type` and `Authorization` header parameters are left out,
 * as OpenAPI prescribes. Schemas that contain themselves are defined once under `$defs`.
 */
export function buildInputPlan(parameters: readonly ParameterObject[], body: RequestBodyObject | undefined): InputPlan {
  const usable = parameters.filter(
    (parameter) => !(parameter.in === 'header' && RESERVED_HEADERS.has(parameter.name.toLowerCase())),
  );
  const counts = new Map<string, number>();
  for (const parameter of usable) counts.set(parameter.name, (counts.get(parameter.name) ?? 0) + 1);
  const bodyArgument = counts.has('body') ? 'requestBody' : 'body';

  const recursive = new RecursiveDefs();
  const properties: Record<string, SchemaNode> = {};
  const required: string[] = [];
  const plans: ArgumentPlan[] = usable.map((parameter) => {
    const argument = (counts.get(parameter.name) ?? 0) > 1 ? `${parameter.in}_${parameter.name}` : parameter.name;
    properties[argument] = parameterSchema(parameter, recursive);
    if (parameter.in === 'path' || parameter.required) required.push(argument);
    return { argument, parameter };
  });

  let bodyPlan: BodyPlan | undefined;
  if (body?.content && Object.keys(body.content).length > 0) {
    const picked = pickBody(body.content);
    const schema = bodySchema(body, picked, recursive);
    const files = picked.encoding === 'multipart' ? fileFields(schema) : [];
    bodyPlan = { argument: bodyArgument, ...picked, ...(files.length > 0 && { files }) };
    properties[bodyArgument] = schema;
    if (body.required) required.push(bodyArgument);
  }
  const schema: SchemaNode = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  if (Object.keys(recursive.defs).length > 0) schema.$defs = recursive.defs;
  return { schema, arguments: plans, ...(bodyPlan && { body: bodyPlan }) };
}
