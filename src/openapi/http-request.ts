import { UserError } from '../errors.js';
import type { BodyPlan, InputPlan } from './input-schema.js';
import type { ParameterObject } from './spec-types.js';

/** A request ready for `fetch`: everything but the signal. */
export interface PlannedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body?: string | Uint8Array | URLSearchParams | FormData;
}

/** A parameter value as text: objects and arrays nested inside another value are sent as JSON. */
function scalar(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function entriesOf(value: object): [string, string][] {
  return Object.entries(value).map(([key, item]) => [key, scalar(item)]);
}

/** OpenAPI "Style Values" for path parameters: simple (default), label and matrix. */
function pathValue(parameter: ParameterObject, value: unknown): string {
  const style = parameter.style ?? 'simple';
  const explode = parameter.explode ?? false;
  const encode = encodeURIComponent;
  const name = parameter.name;
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(scalar(item)));
    if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
    if (style === 'matrix')
      return explode ? items.map((item) => `;${name}=${item}`).join('') : `;${name}=${items.join(',')}`;
    return items.join(',');
  }
  if (typeof value === 'object' && value !== null) {
    const pairs = entriesOf(value).map(([key, item]) => [encode(key), encode(item)] as const);
    const joined = explode ? pairs.map(([key, item]) => `${key}=${item}`) : pairs.flat();
    if (style === 'label') return `.${joined.join(explode ? '.' : ',')}`;
    if (style === 'matrix') {
      return explode ? pairs.map(([key, item]) => `;${key}=${item}`).join('') : `;${name}=${joined.join(',')}`;
    }
    return joined.join(',');
  }
  const text = encode(scalar(value));
  if (style === 'label') return `.${text}`;
  if (style === 'matrix') return `;${name}=${text}`;
  return text;
}

/** OpenAPI "Style Values" for query parameters: form (default, exploded), spaceDelimited, pipeDelimited, deepObject. */
function addQuery(query: URLSearchParams, parameter: ParameterObject, value: unknown): void {
  const style = parameter.style ?? 'form';
  const explode = parameter.explode ?? style === 'form';
  const name = parameter.name;
  if (Array.isArray(value)) {
    const items = value.map(scalar);
    if (explode) for (const item of items) query.append(name, item);
    else query.append(name, items.join(style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ','));
    return;
  }
  if (typeof value === 'object' && value !== null) {
    const pairs = entriesOf(value);
    if (style === 'deepObject') for (const [key, item] of pairs) query.append(`${name}[${key}]`, item);
    else if (explode) for (const [key, item] of pairs) query.append(key, item);
    else query.append(name, pairs.flat().join(','));
    return;
  }
  query.append(name, scalar(value));
}

/** Header and cookie parameters use the simple / form styles: lists comma-joined. */
function flatValue(value: unknown, explode: boolean): string {
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (typeof value === 'object' && value !== null) {
    const pairs = entriesOf(value);
    return (explode ? pairs.map(([key, item]) => `${key}=${item}`) : pairs.flat()).join(',');
  }
  return scalar(value);
}

function base64Bytes(value: unknown, argument: string): Uint8Array {
  if (typeof value !== 'string') throw new UserError(`Argument "${argument}" must be a base64 string.`);
  return Buffer.from(value, 'base64');
}

function encodeBody(plan: BodyPlan, value: unknown): PlannedRequest['body'] {
  switch (plan.encoding) {
    case 'json':
      return JSON.stringify(value);
    case 'text':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'binary':
      return base64Bytes(value, plan.argument);
    case 'form':
      return new URLSearchParams(typeof value === 'object' && value !== null ? entriesOf(value) : []);
    case 'multipart': {
      const form = new FormData();
      const files = new Set(plan.files ?? []);
      if (typeof value !== 'object' || value === null) return form;
      for (const [key, item] of Object.entries(value)) {
        if (files.has(key)) form.append(key, new Blob([base64Bytes(item, `${plan.argument}.${key}`)]), key);
        else form.append(key, scalar(item));
      }
      return form;
    }
  }
}

/**
 * Builds the HTTP request for one call from the validated arguments: path parameters
 * substituted (percent-encoded) into the path template appended to `serverUrl`, query
 * parameters added, header and cookie parameters set, and the body encoded for its media type
 * (`Content-Type` set, except for multipart, where `fetch` sets it with the boundary).
 * `Accept` lists the operation's success media types, JSON first.
 *
 * @throws UserError when a binary body is not a base64 string.
 */
export function planRequest(
  serverUrl: string,
  method: string,
  path: string,
  input: InputPlan,
  accept: string,
  args: Record<string, unknown>,
): PlannedRequest {
  let resolvedPath = path;
  const query = new URLSearchParams();
  const headers = new Headers({ accept });
  const cookies: string[] = [];
  for (const { argument, parameter } of input.arguments) {
    const value = args[argument];
    if (value === undefined) continue;
    if (parameter.in === 'path')
      resolvedPath = resolvedPath.replaceAll(`{${parameter.name}}`, pathValue(parameter, value));
    else if (parameter.in === 'query') addQuery(query, parameter, value);
    else if (parameter.in === 'header') headers.set(parameter.name, flatValue(value, parameter.explode ?? false));
    else if (parameter.in === 'cookie') {
      cookies.push(`${parameter.name}=${encodeURIComponent(flatValue(value, parameter.explode ?? true))}`);
    }
  }
  if (cookies.length > 0) headers.set('cookie', cookies.join('; '));
  const url = new URL(`${serverUrl}${resolvedPath.startsWith('/') ? '' : '/'}${resolvedPath}`);
  for (const [key, value] of query) url.searchParams.append(key, value);

  const planned: PlannedRequest = { method, url, headers };
  const bodyValue = input.body ? args[input.body.argument] : undefined;
  if (input.body && bodyValue !== undefined) {
    planned.body = encodeBody(input.body, bodyValue);
    if (input.body.encoding !== 'multipart') headers.set('content-type', input.body.mediaType);
  }
  return planned;
}
