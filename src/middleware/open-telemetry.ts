import type * as OtelApi from '@opentelemetry/api';
import { ProtocolError } from '@modelcontextprotocol/server';
import { requireOptional } from '../lazy-module.js';
import type { Middleware, MiddlewareContext, MiddlewareResult } from '../mcp/pipeline/middleware.js';
import { checkOpenTelemetryOptions } from './middleware-options.js';

/** Options of {@link openTelemetry}; by default the app's global OTel providers and propagator. */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global tracer provider (`trace.setGlobalTracerProvider`, the OTel SDK's setup). */
  readonly tracerProvider?: OtelApi.TracerProvider;
  /** Where metrics go. Default: the global meter provider. */
  readonly meterProvider?: OtelApi.MeterProvider;
  /** Reads the parent trace context out of `params._meta`. Default: the global propagator (W3C `traceparent` with the OTel SDK). */
  readonly propagator?: OtelApi.TextMapPropagator;
  /** The instrumentation scope's name. Default `mcp-toolkit`. */
  readonly scopeName?: string;
}

/** Reads string entries of a request's `_meta` (W3C `traceparent`, `tracestate`, `baggage`). */
const metaGetter: OtelApi.TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** The span's low-cardinality target after the method: the tool or prompt name. */
function targetOf(context: MiddlewareContext): string | undefined {
  if (context.method === 'tools/call') return context.toolName;
  if (context.method === 'prompts/get') return context.params.name;
  return undefined;
}

/** Span attributes of a request (OpenTelemetry semantic conventions for MCP). */
function requestAttributes(context: MiddlewareContext): OtelApi.Attributes {
  return {
    'mcp.method.name': context.method,
    'jsonrpc.request.id': String(context.requestId),
    'network.transport': context.transport === 'http' ? 'tcp' : 'pipe',
    ...(context.sessionId !== undefined && { 'mcp.session.id': context.sessionId }),
    ...(context.method === 'tools/call' && {
      'gen_ai.tool.name': context.toolName,
      'gen_ai.operation.name': 'execute_tool',
    }),
    ...(context.method === 'prompts/get' && { 'gen_ai.prompt.name': context.params.name }),
    ...(context.method === 'resources/read' && { 'mcp.resource.uri': context.params.uri }),
  };
}

/** `error.type` of a failed request: the JSON-RPC code, `tool_error` for an `isError` result, else the error's class. */
function errorType(error: unknown): string {
  if (error instanceof ProtocolError) return String(error.code);
  return error instanceof Error ? error.name : 'Error';
}

/**
 * OpenTelemetry middleware, through `@opentelemetry/api` only (an optional peer dependency: the app's
 * own OTel SDK setup receives the data). Per request: a `SERVER` span named `<method> <tool or
 * prompt>` with the MCP semantic conventions (`mcp.method.name`, `gen_ai.tool.name`,
 * `gen_ai.operation.name`, `gen_ai.prompt.name`, `mcp.resource.uri`, `mcp.session.id`,
 * `jsonrpc.request.id`, `network.transport`, and `error.type` with status ERROR on failure, `tool_error`
 * for an `isError` result), whose parent is the trace context the client put in `params._meta`
 * (`traceparent`, `tracestate`), else the active context. The span is active while the handler runs,
 * so the tool's own spans are its children. Metrics: `mcp.server.requests` (counter) and
 * `mcp.server.operation.duration` (histogram, seconds), with `mcp.method.name`, `gen_ai.tool.name`
 * and `error.type`.
 *
 * @throws MissingDependencyError when `@opentelemetry/api` is not installed (`npm install @opentelemetry/api`).
 * @throws InvalidOptionsError for an option of the wrong type or an unknown option.
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Middleware {
  checkOpenTelemetryOptions(options);
  const api = requireOptional<typeof OtelApi>('@opentelemetry/api', 'openTelemetry() (mcp-toolkit/middleware)');
  const scope = options.scopeName ?? 'mcp-toolkit';
  const tracer = (options.tracerProvider ?? api.trace.getTracerProvider()).getTracer(scope);
  const meter = (options.meterProvider ?? api.metrics.getMeterProvider()).getMeter(scope);
  const requests = meter.createCounter('mcp.server.requests', {
    unit: '{request}',
    description: 'MCP requests answered by the server.',
  });
  const duration = meter.createHistogram('mcp.server.operation.duration', {
    unit: 's',
    description: 'Duration of MCP requests, from the pipeline to the answer.',
    advice: { explicitBucketBoundaries: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] },
  });
  const propagator = options.propagator ?? api.propagation;

  return async (context, next) => {
    const carrier = (context.sdk.mcpReq._meta ?? {}) as Record<string, unknown>;
    const parent = propagator.extract(api.context.active(), carrier, metaGetter);
    const target = targetOf(context);
    const span = tracer.startSpan(
      target === undefined ? context.method : `${context.method} ${target}`,
      { kind: api.SpanKind.SERVER, attributes: requestAttributes(context) },
      parent,
    );
    const started = performance.now();
    let failure: string | undefined;
    try {
      const result: MiddlewareResult = await api.context.with(api.trace.setSpan(parent, span), () => next());
      if (result.isError === true) failure = 'tool_error';
      return result;
    } catch (error) {
      failure = errorType(error);
      if (error instanceof Error) span.recordException(error);
      throw error;
    } finally {
      if (failure !== undefined) {
        span.setAttribute('error.type', failure);
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      span.end();
      const attributes = {
        'mcp.method.name': context.method,
        ...(context.toolName !== undefined && { 'gen_ai.tool.name': context.toolName }),
        ...(failure !== undefined && { 'error.type': failure }),
      };
      requests.add(1, attributes);
      duration.record((performance.now() - started) / 1000, attributes);
    }
  };
}
