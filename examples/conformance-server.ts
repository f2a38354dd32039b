/**
 * The fixture server of the official MCP conformance suite (`@modelcontextprotocol/conformance`),
 * built only from the toolkit's public API: every tool, resource, resource template and prompt the
 * suite's server scenarios call, served over `HttpMcpServer` (both protocol eras on one endpoint).
 *
 * Run: `npm run conformance` (compiles this file, starts it, runs the suite). By hand:
 *   node <compiled>/examples/conformance-server.js --port 3001   → http://127.0.0.1:3001/mcp
 * It prints one line `listening <url>` on stderr once it serves, and stops on SIGTERM/SIGINT.
 */
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

  // ── Tools: 2026-07-28 multi-round-trip requests (input-required-result-*) ─
  server.registerTool(
    defineTool({
      name: 'test_input_required_result_elicitation',
      description: 'MRTR: asks for the user name by elicitation, then greets',
      inputSchema: noArgs,
      execute: async (_args, context: ToolContext) => {
        const answer = await context.elicit({ message: 'What is your name?', requestedSchema: askFor('name') });
        return `Hello, ${elicitedText(answer, 'name')}!`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_input_required_result_sampling',
      description: 'MRTR: asks the client model a question by sampling',
      inputSchema: noArgs,
      execute: async (_args, context: ToolContext) => {
        const answer = await context.sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        });
        return `Sampling answer: ${samplingText(answer)}`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_input_required_result_request_state',
      description: 'MRTR: asks for a confirmation, carrying state between rounds',
      inputSchema: noArgs,
      execute: async (_args, context: ToolContext) => {
        const answer = await context.elicit({ message: 'Please confirm', requestedSchema: askFor('ok', 'boolean') });
        return `Confirmed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_input_required_result_multi_round',
      description: 'MRTR: two elicitation rounds (name, then colour)',
      inputSchema: noArgs,
      execute: async (_args, context: ToolContext) => {
        const step1 = await context.elicit({
          message: 'Step 1: What is your name?',
          requestedSchema: askFor('name'),
        });
        const step2 = await context.elicit({
          message: 'Step 2: What is your favorite color?',
          requestedSchema: askFor('color'),
        });
        return `Multi-round complete for ${elicitedText(step1, 'name')} who likes ${elicitedText(step2, 'color')}`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_input_required_result_tampered_state',
      description: 'MRTR: the state of the first round is HMAC-sealed; a tampered state is rejected',
      inputSchema: noArgs,
      execute: async (_args, context: ToolContext) => {
        await context.elicit({ message: 'Please confirm', requestedSchema: askFor('ok', 'boolean') });
        const again = await context.elicit({ message: 'Confirm once more', requestedSchema: askFor('ok', 'boolean') });
        return `integrity-ok: action=${again.action}`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_input_required_result_capabilities',
      description: 'MRTR: asks only for what the client declared (elicitation and/or sampling)',
      inputSchema: noArgs,
      execute: async (_args, context: ToolContext) => {
        const caps = context.clientCapabilities ?? {};
        const asked: string[] = [];
        if (caps.elicitation) {
          await context.elicit({ message: 'Elicitation input', requestedSchema: askFor('value') });
          asked.push('elicitation');
        }
        if (caps.sampling) {
          await context.sample({
            messages: [{ role: 'user', content: { type: 'text', text: 'Sample request' } }],
            maxTokens: 50,
          });
          asked.push('sampling');
        }
        return asked.length > 0 ? `capabilities-ok: received ${asked.join(',')}` : 'No supported capabilities declared';
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_missing_capability',
      description: 'Needs the client sampling capability; rejected when the client did not declare it',
      inputSchema: noArgs,
      execute: async (_args, context: ToolContext) => {
        const answer = await context.sample({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
          maxTokens: 20,
        });
        return `Sampled: ${samplingText(answer)}`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_streaming_elicitation',
      description: 'Reports progress, then asks for input: the response stream holds only notifications and results',
      inputSchema: noArgs,
      execute: async (_args, context: ToolContext) => {
        await context.reportProgress({ progress: 50, total: 100 });
        const answer = await context.elicit({ message: 'Continue?', requestedSchema: askFor('ok', 'boolean') });
        return `Streaming complete: action=${answer.action}`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_logging_tool',
      description: 'Logs at info level; clients that set no log level receive no log messages',
      inputSchema: noArgs,
      execute: (_args, context: ToolContext) => {
        context.log.info('Diagnostic trace logging activated');
        return 'Logging evaluated';
      },
    }),
  );

  // ── Tools: list mutations for subscriptions/listen (server-stateless) ─────
  const dynamicTool = defineTool({
    name: 'test_dynamic_tool',
    description: 'A tool test_trigger_tool_change enables and disables',
    inputSchema: noArgs,
    execute: () => 'Dynamic tool executed',
  });
  server.registerTool(dynamicTool);
  server.registerTool(
    defineTool({
      name: 'test_trigger_tool_change',
      description: 'Toggles test_dynamic_tool, changing the tool list (clients are told once)',
      inputSchema: noArgs,
      execute: () => {
        const enabled = server.getToolStates().find((state) => state.tool.name === dynamicTool.name)?.enabled;
        if (enabled) server.disableTool(dynamicTool.name);
        else server.enableTool(dynamicTool.name);
        return `Mutation triggered: test_dynamic_tool ${enabled ? 'disabled' : 'enabled'}`;
      },
    }),
  );
  const dynamicPrompt = {
    name: 'test_dynamic_prompt',
    description: 'A prompt test_trigger_prompt_change adds and removes',
    load: () => 'This is a dynamic prompt.',
  };
  server.registerTool(
    defineTool({
      name: 'test_trigger_prompt_change',
      description: 'Adds or removes test_dynamic_prompt, changing the prompt list (clients are told once)',
      inputSchema: noArgs,
      execute: () => {
        const removed = server.removePrompt(dynamicPrompt.name);
        if (!removed) server.registerPrompt(dynamicPrompt);
        return `Mutation triggered: test_dynamic_prompt ${removed ? 'removed' : 'added'}`;
      },
    }),
  );

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

if (process.argv[1] && import.meta.url === new URL(process.argv[1], 'file://').href) {
  await main();
}
