/**
 * The fixture server of the official MCP conformance suite (`@modelcontextprotocol/conformance`),
 * built only from the toolkit's public API: every tool, resource, resource template and prompt the
 * suite's server scenarios call, served over `HttpMcpServer` (both protocol eras on one endpoint).
 *
 * Run: `npm run conformance` (compiles this file, starts it, runs the suite). By hand:
 *   node <compiled>/examples/conformance-server.js --port 3001   → http://127.0.0.1:3001/mcp
 * It prints one line `listening <url>` on stderr once it serves, and stops on SIGTERM/SIGINT.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  HttpMcpServer,
  audioContent,
  defineTool,
  embeddedResource,
  imageContent,
  createDefaultLogger,
  type ElicitOptions,
  type ToolContext,
} from '../src/index.js';
import { registerTaskFixtures } from './conformance-tasks.js';

/** 1x1 PNG and a minimal WAV, as in the suite's reference server. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';
const png = () => Buffer.from(PNG_BASE64, 'base64');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const noArgs = z.object({});

/** The SEP-1613 / SEP-2106 schema the `json-schema-2020-12` scenario expects verbatim in `tools/list`. */
const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

const ELICIT_USER_SCHEMA = {
  type: 'object' as const,
  properties: {
    username: { type: 'string' as const, description: "User's response" },
    email: { type: 'string' as const, description: "User's email address" },
  },
  required: ['username', 'email'],
};

const ELICIT_DEFAULTS_SCHEMA = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, description: 'User name', default: 'John Doe' },
    age: { type: 'integer' as const, description: 'User age', default: 30 },
    score: { type: 'number' as const, description: 'User score', default: 95.5 },
    status: {
      type: 'string' as const,
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean' as const, description: 'Verification status', default: true },
  },
  required: [],
};

const ELICIT_ENUMS_SCHEMA = {
  type: 'object' as const,
  properties: {
    untitledSingle: {
      type: 'string' as const,
      description: 'Select one option',
      enum: ['option1', 'option2', 'option3'],
    },
    titledSingle: {
      type: 'string' as const,
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string' as const,
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array' as const,
      description: 'Select multiple options',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string' as const, enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array' as const,
      description: 'Select multiple options with titles',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
};

/** A one-string-field elicitation schema. */
const askFor = (field: string, type: 'string' | 'boolean' = 'string'): ElicitOptions['requestedSchema'] => ({
  type: 'object',
  properties: { [field]: type === 'boolean' ? { type: 'boolean' } : { type: 'string' } },
  required: [field],
});

const elicitedText = (result: { content?: Record<string, unknown> }, field: string) => {
  const value = result.content?.[field];
  return typeof value === 'string' ? value : 'unknown';
};

const samplingText = (result: { content: unknown }) => {
  const content = result.content as { type?: string; text?: string } | { type?: string; text?: string }[];
  const first = Array.isArray(content) ? content[0] : content;
  return first?.type === 'text' ? (first.text ?? '') : '';
};

function parsePort(argv: readonly string[]): number {
  const index = argv.indexOf('--port');
  const raw = index >= 0 ? argv[index + 1] : process.env.PORT;
  const port = Number(raw ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`bad --port: ${raw}`);
  return port;
}

export function createConformanceServer(port: number): HttpMcpServer {
  const server = new HttpMcpServer(
    { name: 'mcp-toolkit-conformance-fixture', version: '1.0.0' },
    { host: '127.0.0.1', port, logger: createDefaultLogger('warn'), keepAliveMs: 0 },
  );

  /** A tool without arguments (`{}` schema) whose `execute` needs only the context. */
  const noArgTool = (name: string, description: string, execute: (context: ToolContext) => string | Promise<string>) =>
    server.registerTool(defineTool({ name, description, inputSchema: noArgs, execute: (_args, ctx) => execute(ctx) }));
  const ask = (context: ToolContext, key: string, message: string, field: string, type?: 'boolean') =>
    context.elicit({ key, message, requestedSchema: askFor(field, type) });
  const sampleText = (context: ToolContext, key: string, text: string, maxTokens: number) =>
    context.sample({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens }, { key });

  // ── Tools: content types (tools-call-*) ──────────────────────────────────
  server.registerTool(
    defineTool({
      name: 'test_simple_text',
      description: 'Tests simple text content response',
      execute: () => 'This is a simple text response for testing.',
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_image_content',
      description: 'Tests image content response',
      execute: async () => [await imageContent(png(), { mimeType: 'image/png' })],
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_audio_content',
      description: 'Tests audio content response',
      execute: async () => [await audioContent(Buffer.from(WAV_BASE64, 'base64'), { mimeType: 'audio/wav' })],
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_embedded_resource',
      description: 'Tests embedded resource content response',
      execute: () => [
        embeddedResource({
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        }),
      ],
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_multiple_content_types',
      description: 'Tests response with multiple content types (text, image, resource)',
      execute: async () => [
        { type: 'text' as const, text: 'Multiple content types test:' },
        await imageContent(png(), { mimeType: 'image/png' }),
        embeddedResource({
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: JSON.stringify({ test: 'data', value: 123 }),
        }),
      ],
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_error_handling',
      description: 'Tests error response handling',
      execute: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    }),
  );

  // ── Tools: context (logging, progress, sampling, elicitation) ────────────
  server.registerTool(
    defineTool({
      name: 'test_tool_with_logging',
      description: 'Tests tool that emits log messages during execution',
      execute: async (_args, context: ToolContext) => {
        context.log.info('Tool execution started');
        await sleep(50);
        context.log.info('Tool processing data');
        await sleep(50);
        context.log.info('Tool execution completed');
        return 'Tool with logging executed successfully';
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_tool_with_progress',
      description: 'Tests tool that reports progress notifications',
      execute: async (_args, context: ToolContext) => {
        for (const progress of [0, 50, 100]) {
          if (progress > 0) await sleep(50);
          await context.reportProgress({ progress, total: 100, message: `Completed step ${progress} of 100` });
        }
        return 'Progress tool completed (0, 50, 100 of 100)';
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_sampling',
      description: 'Tests server-initiated sampling (LLM completion request)',
      inputSchema: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
      execute: async ({ prompt }, context: ToolContext) => {
        const result = await context.sample({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        });
        return `LLM response: ${samplingText(result)}`;
      },
    }),
  );
  /** A tool that elicits once (built from the call's arguments) and reports the answer. */
  const elicitTool = (
    spec: { name: string; description: string; inputSchema?: z.ZodObject<{ message: z.ZodString }> },
    request: (args: { message?: string }) => ElicitOptions,
    label = 'Elicitation completed',
  ) =>
    defineTool<{ message?: string }>({
      ...spec,
      execute: async (args, context: ToolContext) => {
        const result = await context.elicit(request(args));
        return `${label}: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      },
    });
  server.registerTool(
    elicitTool(
      {
        name: 'test_elicitation',
        description: 'Tests server-initiated elicitation (user input request)',
        inputSchema: z.object({ message: z.string().describe('The message to show the user') }),
      },
      ({ message }) => ({ message: message ?? '', requestedSchema: ELICIT_USER_SCHEMA }),
      'User response',
    ),
  );
  server.registerTool(
    elicitTool(
      { name: 'test_elicitation_sep1034_defaults', description: 'Tests elicitation with default values per SEP-1034' },
      () => ({
        message: 'Please review and update the form fields with defaults',
        requestedSchema: ELICIT_DEFAULTS_SCHEMA,
      }),
    ),
  );
  server.registerTool(
    elicitTool(
      {
        name: 'test_elicitation_sep1330_enums',
        description: 'Tests elicitation with enum schema improvements per SEP-1330',
      },
      () => ({ message: 'Please select options from the enum fields', requestedSchema: ELICIT_ENUMS_SCHEMA as never }),
    ),
  );
  server.registerTool(
    defineTool({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
      inputSchema: JSON_SCHEMA_2020_12,
      execute: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
    }),
  );

  noArgTool(
    'test_reconnection',
    'SEP-1699 polling probe: answers after a short pause (the SDK closes a call stream for polling only with an event store and a 2025-11-25 client)',
    async () => {
      await sleep(100);
      return 'Reconnection test completed successfully.';
    },
  );

  server.registerTool(
    defineTool({
      name: 'test_param_headers',
      description: 'SEP-2243: region and priority are mirrored in Mcp-Param-Region / Mcp-Param-Priority headers',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'Where to run', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', description: 'How urgent', 'x-mcp-header': 'Priority' },
        },
        required: ['region'],
      },
      execute: (args) => `Routed with ${JSON.stringify(args)}`,
    }),
  );

  // ── Tools: 2026-07-28 multi-round-trip requests (input-required-result-*) ─
  // On 2026-07-28 each elicit/sample/listRoots becomes an `inputRequests` entry under its `key`;
  // on the legacy era the same tools send real server-to-client requests.
  noArgTool('test_input_required_result_elicitation', 'MRTR: asks the user name (key user_name)', async (ctx) => {
    const answer = await ask(ctx, 'user_name', 'What is your name?', 'name');
    return `Hello, ${elicitedText(answer, 'name')}!`;
  });
  noArgTool(
    'test_input_required_result_sampling',
    'MRTR: asks the client model (key capital_question)',
    async (ctx) => {
      const answer = await sampleText(ctx, 'capital_question', 'What is the capital of France?', 100);
      return `Sampling answer: ${samplingText(answer)}`;
    },
  );
  noArgTool('test_input_required_result_list_roots', 'MRTR: asks the client roots (key client_roots)', async (ctx) => {
    const { roots } = await ctx.listRoots({ key: 'client_roots' });
    return `Client roots: ${roots.map((root) => root.uri).join(', ') || '(none)'}`;
  });
  noArgTool('test_input_required_result_request_state', 'MRTR: asks a confirmation (key confirm)', async (ctx) => {
    const answer = await ask(ctx, 'confirm', 'Please confirm', 'ok', 'boolean');
    return `Confirmed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  });
  noArgTool(
    'test_input_required_result_multiple_inputs',
    'MRTR: asks name, greeting and roots in one round',
    async (ctx) => {
      const [name, greeting, { roots }] = await Promise.all([
        ask(ctx, 'user_name', 'What is your name?', 'name'),
        sampleText(ctx, 'greeting', 'Generate a greeting', 50),
        ctx.listRoots({ key: 'client_roots' }),
      ]);
      return `${samplingText(greeting)} ${elicitedText(name, 'name')} (${roots.length} roots)`;
    },
  );
  noArgTool('test_input_required_result_multi_round', 'MRTR: two rounds (step1 name, step2 colour)', async (ctx) => {
    const step1 = await ask(ctx, 'step1', 'Step 1: What is your name?', 'name');
    const step2 = await ask(ctx, 'step2', 'Step 2: What is your favorite color?', 'color');
    return `Multi-round complete for ${elicitedText(step1, 'name')} who likes ${elicitedText(step2, 'color')}`;
  });
  noArgTool(
    'test_input_required_result_tampered_state',
    'MRTR: its requestState is HMAC-sealed; a tampered one is rejected',
    async (ctx) => {
      const answer = await ask(ctx, 'confirm', 'Please confirm', 'ok', 'boolean');
      return `integrity-ok: action=${answer.action}`;
    },
  );
  noArgTool(
    'test_input_required_result_capabilities',
    'MRTR: asks only through the capabilities the client declared',
    async (ctx) => {
      const caps = ctx.clientCapabilities ?? {};
      const asked = await Promise.all([
        caps.elicitation ? ask(ctx, 'elicit_input', 'Elicitation input', 'value').then(() => 'elicit_input') : '',
        caps.sampling ? sampleText(ctx, 'sample_input', 'Sample request', 50).then(() => 'sample_input') : '',
      ]);
      const received = asked.filter(Boolean);
      return received.length > 0 ? `capabilities-ok: received ${received.join(',')}` : 'No supported capabilities';
    },
  );
  noArgTool(
    'test_missing_capability',
    'Needs the client sampling capability (-32021 on 2026-07-28 without it)',
    async (ctx) => `Sampled: ${samplingText(await sampleText(ctx, 'sample', 'Say hi', 20))}`,
  );
  noArgTool(
    'test_streaming_elicitation',
    'Reports progress, then elicits: its response stream holds only notifications and results',
    async (ctx) => {
      await ctx.reportProgress({ progress: 50, total: 100 });
      return `Streaming complete: action=${(await ask(ctx, 'continue', 'Continue?', 'ok', 'boolean')).action}`;
    },
  );
  noArgTool('test_logging_tool', 'Logs at info level; a client that set no log level receives nothing', (ctx) => {
    ctx.log.info('Diagnostic trace logging activated');
    return 'Logging evaluated';
  });

  // ── Tools: list mutations for subscriptions/listen (server-stateless) ─────
  noArgTool('test_dynamic_tool', 'A tool test_trigger_tool_change disables and enables', () => 'Dynamic tool executed');
  noArgTool('test_trigger_tool_change', 'Toggles test_dynamic_tool: the tool list changes', () => {
    const enabled = server.getToolStates().find((state) => state.tool.name === 'test_dynamic_tool')?.enabled;
    if (enabled) server.disableTool('test_dynamic_tool');
    else server.enableTool('test_dynamic_tool');
    return `Mutation triggered: test_dynamic_tool ${enabled ? 'disabled' : 'enabled'}`;
  });
  noArgTool('test_trigger_prompt_change', 'Adds or removes test_dynamic_prompt: the prompt list changes', () => {
    const removed = server.removePrompt('test_dynamic_prompt');
    if (!removed)
      server.registerPrompt({
        name: 'test_dynamic_prompt',
        description: 'A prompt test_trigger_prompt_change adds and removes',
        load: () => 'This is a dynamic prompt.',
      });
    return `Mutation triggered: test_dynamic_prompt ${removed ? 'removed' : 'added'}`;
  });

  // ── Resources ─────────────────────────────────────────────────────────────
  server.registerResource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  });
  server.registerResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
    read: () => png(),
  });
  let watchedVersion = 0;
  server.registerResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource whose content changes; subscribers are told',
    mimeType: 'text/plain',
    read: () => `Watched resource content (version ${watchedVersion})`,
  });
  server.registerResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
    complete: { id: ['1', '2', '3', '123'] },
    read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
  });
  const watchTimer = setInterval(() => {
    watchedVersion += 1;
    server.sendResourceUpdated('test://watched-resource');
  }, 3000);
  watchTimer.unref();
  server.events.on('stopped', () => clearInterval(watchTimer));

  // ── Prompts ───────────────────────────────────────────────────────────────
  server.registerPrompt({
    name: 'test_simple_prompt',
    title: 'Simple Test Prompt',
    description: 'A simple prompt without arguments',
    load: () => 'This is a simple prompt for testing.',
  });
  server.registerPrompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'A prompt with required arguments',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    load: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  });
  server.registerPrompt({
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
    load: ({ resourceUri }) => [
      {
        role: 'user' as const,
        content: embeddedResource({
          uri: resourceUri ?? '',
          mimeType: 'text/plain',
          text: 'Embedded resource content for testing.',
        }),
      },
      {
        role: 'user' as const,
        content: { type: 'text' as const, text: 'Please process the embedded resource above.' },
      },
    ],
  });
  server.registerPrompt({
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A prompt that includes image content',
    load: async () => [
      { role: 'user' as const, content: await imageContent(png(), { mimeType: 'image/png' }) },
      { role: 'user' as const, content: { type: 'text' as const, text: 'Please analyze the image above.' } },
    ],
  });

  server.registerPrompt({
    name: 'test_input_required_result_prompt',
    description: 'MRTR on prompts/get: asks the context to use (key user_context)',
    load: async (_args, context) => {
      const answer = await context.elicit({
        key: 'user_context',
        message: 'What context should the prompt use?',
        requestedSchema: askFor('context'),
      });
      return `Prompt with context: ${elicitedText(answer, 'context')}`;
    },
  });

  registerTaskFixtures(server);
  return server;
}

async function main(): Promise<void> {
  const server = createConformanceServer(parsePort(process.argv.slice(2)));
  await server.start();
  process.stderr.write(`listening ${server.address.url}\n`);
  const stop = () => {
    server.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))) {
  await main();
}
