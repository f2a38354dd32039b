import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import { UserError } from '../errors.js';
import { Tool } from '../registry/tool.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { AuthPlan } from './auth.js';
import { planRequest } from './http-request.js';
import { toToolResult } from './http-response.js';
import type { InputPlan } from './input-schema.js';
import type { OpenApiOperationInfo, SpecOperation } from './operations.js';

/** Extra headers for every call: fixed, or computed per call (a fresh token, the caller's own key). */
export type OpenApiHeaders =
  | Readonly<Record<string, string>>
  | ((call: {
      operation: OpenApiOperationInfo;
      context: ToolContext;
    }) => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/** Everything one operation's tool needs at call time. */
export interface OperationToolConfig {
  readonly name: string;
  readonly spec: SpecOperation;
  readonly input: InputPlan;
  readonly auth: AuthPlan;
  readonly serverUrl: string;
  readonly accept: string;
  readonly headers?: OpenApiHeaders;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly fetch: typeof fetch;
}

const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/** MCP tool annotations from the HTTP method's semantics (RFC 9110 section 9.2). */
function annotationsFor(info: OpenApiOperationInfo): ToolAnnotations {
  return {
    ...(info.summary !== undefined && { title: info.summary }),
    readOnlyHint: READ_ONLY.has(info.method),
    destructiveHint: info.method === 'DELETE' || info.method === 'PUT',
    idempotentHint: IDEMPOTENT.has(info.method),
    openWorldHint: true,
  };
}

function descriptionOf(spec: SpecOperation): string {
  const { summary, description, deprecated } = spec.operation;
  const parts = [summary, description && description !== summary ? description : undefined].filter(Boolean);
  parts.push(`(${spec.info.method} ${spec.info.path}${deprecated ? ', deprecated' : ''})`);
  return parts.join('\n\n');
}

/**
 * One OpenAPI operation as an MCP tool: its arguments (validated against the input schema
 * before `execute` runs) become an HTTP request sent with `fetch`; the response becomes the
 * tool result (see `toToolResult`). The call is bounded by `timeoutMs` and by the call's own
 * signal (client cancellation, `stop()`).
 */
export class OpenApiOperationTool extends Tool<Record<string, unknown>> {
  readonly #config: OperationToolConfig;

  constructor(config: OperationToolConfig) {
    const { info, operation } = config.spec;
    super({
      name: config.name,
      ...(operation.summary !== undefined && { title: operation.summary }),
      description: descriptionOf(config.spec),
      inputSchema: config.input.schema,
      annotations: annotationsFor(info),
      _meta: {
        'mcp-toolkit/openapi': {
          method: info.method,
          path: info.path,
          ...(info.operationId !== undefined && { operationId: info.operationId }),
        },
      },
    });
    this.#config = config;
  }

  /** The operation this tool calls. */
  get operation(): OpenApiOperationInfo {
    return this.#config.spec.info;
  }

  async execute(args: Record<string, unknown>, context: ToolContext): Promise<CallToolResult> {
    const config = this.#config;
    const { method, path } = config.spec.info;
    const request = planRequest(config.serverUrl, method, path, config.input, config.accept, args);
    config.auth.apply(request);
    const extra =
      typeof config.headers === 'function'
        ? await config.headers({ operation: this.operation, context })
        : config.headers;
    for (const [key, value] of Object.entries(extra ?? {})) request.headers.set(key, value);

    const target = `${method} ${request.url.href}`;
    const timeout = AbortSignal.timeout(config.timeoutMs);
    let response: Response;
    try {
      response = await config.fetch(request.url, {
        method,
        headers: request.headers,
        body: request.body as RequestInit['body'],
        signal: AbortSignal.any([context.signal, timeout]),
        redirect: 'follow',
      });
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      if (timeout.aborted) throw new UserError(`${target} did not answer within ${config.timeoutMs} ms; retry later.`);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new UserError(`Could not reach ${target}: ${why}. Check that the API is up and its server URL is right.`);
    }
    const pathArguments = config.input.arguments
      .filter(({ parameter }) => parameter.in === 'path')
      .map(({ argument }) => argument);
    return toToolResult(response, config.maxResponseBytes, {
      target,
      pathArguments,
      schemes: config.auth.accepted,
    });
  }
}
