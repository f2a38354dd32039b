// openTelemetry() with the real OTel SDK in the test (sdk-trace-base's InMemorySpanExporter,
// sdk-metrics' MeterProvider, core's W3C propagator): a SERVER span per request with the MCP
// semantic conventions, its parent taken from the client's `_meta.traceparent`, error.type on
// failures, and the request counter and duration histogram; v2 clients of both eras over HTTP.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { UserError } from '../../src/errors.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { openTelemetry } from '../../src/middleware/open-telemetry.js';
import { defineTool } from '../../src/registry/tool.js';
import { clientOptions, silentLogger } from '../support/in-memory.js';

/** A metric reader the test collects from on demand. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

async function setup() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const server = new HttpMcpServer({ name: 'otel', version: '1.0.0' }, { port: 0, logger: silentLogger() });
  server.registerTool(
    defineTool({
      name: 'add',
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => String(a + b),
    }),
  );
  server.registerTool(
    defineTool({
      name: 'fail',
      execute: () => {
        throw new UserError('always fails');
      },
    }),
  );
  server.use(openTelemetry({ tracerProvider, meterProvider, propagator: new W3CTraceContextPropagator() }));
  await server.start();
  closers.push(
    () => server.stop(),
    () => tracerProvider.shutdown(),
    () => meterProvider.shutdown(),
  );
  const connect = async (era: 'legacy' | 'modern') => {
    const client = new Client({ name: 'otel-test', version: '1.0.0' }, clientOptions(era));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.address.url)));
    closers.push(() => client.close());
    return client;
  };
  return { exporter, reader, connect };
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN = '00f067aa0ba902b7';

describe('openTelemetry()', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`makes a span per request, child of the client's traceparent, with MCP attributes (${era})`, async () => {
      const { exporter, reader, connect } = await setup();
      const client = await connect(era);
      const traceparent = `00-${TRACE_ID}-${PARENT_SPAN}-01`;
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent } });
      await client.callTool({ name: 'fail', arguments: {} });
      await client.listTools();
      await client.readResource({ uri: 'memo://nothing' }).catch(() => {});

      const spans = exporter.getFinishedSpans();
      const byName = (name: string) => spans.find((span) => span.name === name)!;
      const add = byName('tools/call add');
      expect(add.kind).toBe(1); // SpanKind.SERVER
      expect(add.spanContext().traceId).toBe(TRACE_ID);
      expect(add.parentSpanContext?.spanId).toBe(PARENT_SPAN);
      expect(add.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'add',
        'gen_ai.operation.name': 'execute_tool',
        'network.transport': 'tcp',
      });
      expect(add.attributes['error.type']).toBeUndefined();
      if (era === 'legacy') expect(add.attributes['mcp.session.id']).toBeTypeOf('string');
      else expect(add.attributes['mcp.session.id']).toBeUndefined();

      const fail = byName('tools/call fail');
      expect(fail.spanContext().traceId).not.toBe(TRACE_ID); // no traceparent: a new trace
      expect(fail.attributes['error.type']).toBe('tool_error');
      expect(fail.status.code).toBe(2); // SpanStatusCode.ERROR
      expect(byName('tools/list').attributes['mcp.method.name']).toBe('tools/list');
      expect(byName('resources/read').attributes).toMatchObject({
        'error.type': '-32602',
        'mcp.resource.uri': 'memo://nothing',
      });

      const { resourceMetrics } = await reader.collect();
      const metrics = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
      const count = metrics.find((metric) => metric.descriptor.name === 'mcp.server.requests')!;
      const addCount = count.dataPoints.find((point) => point.attributes['gen_ai.tool.name'] === 'add');
      expect(addCount?.value).toBe(1);
      const durations = metrics.find((metric) => metric.descriptor.name === 'mcp.server.operation.duration')!;
      expect(durations.descriptor.unit).toBe('s');
      const failed = durations.dataPoints.find((point) => point.attributes['error.type'] === 'tool_error');
      expect((failed?.value as { count: number }).count).toBe(1);
    });
  }
});
