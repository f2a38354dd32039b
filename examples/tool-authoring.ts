/**
 * Tool authoring tour: every feature of docs/tools.md in one runnable server.
 * Run: npm run build:examples && node .tmp/examples/examples/tool-authoring.js
 * (or compile with tsc); talk to it over stdio with any MCP client.
 */
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import {
  StdioMcpServer,
  Tool,
  ToolPackage,
  UserError,
  defineTool,
  imageContent,
  resourceLink,
  type ToolContext,
} from '../src/index.js';
import { fromLlmChatTool } from '../src/public/llm-chat.js';

// #region class-tool
// 1. A class-based tool with zod arguments, annotations, a timeout and progress.
class ReportTool extends Tool<{ quarter: number }> {
  constructor() {
    super({
      name: 'build_report',
      title: 'Build report',
      description: 'Builds the quarterly report.',
      inputSchema: z.object({ quarter: z.number().int().min(1).max(4) }),
      annotations: { readOnlyHint: true, idempotentHint: true },
      timeoutMs: 30_000,
    });
  }

  async execute({ quarter }: { quarter: number }, context: ToolContext) {
    for (let step = 1; step <= 3; step += 1) {
      if (context.signal.aborted) throw new UserError('Report cancelled.');
      await context.reportProgress({ progress: step, total: 3, message: `section ${step}` });
    }
    context.log.info('report built', { quarter });
    return `Q${quarter} report: all good.`;
  }
}
// #endregion class-tool

// #region structured
// 2. Structured output, validated against outputSchema before it is sent.
const stats = defineTool({
  name: 'stats',
  inputSchema: z.object({ values: z.array(z.number()) }),
  outputSchema: z.object({ count: z.number(), mean: z.number() }),
  execute: ({ values }) => ({
    count: values.length,
    mean: values.reduce((sum, v) => sum + v, 0) / Math.max(values.length, 1),
  }),
});
// #endregion structured

// #region elicit
// 3. Asking the user (elicitation) and the client's model (sampling): one API on both eras.
const deploy = defineTool({
  name: 'deploy',
  inputSchema: z.object({ env: z.enum(['staging', 'production']) }),
  annotations: { destructiveHint: true },
  execute: async ({ env }, context) => {
    const answer = await context.elicit({
      message: `Deploy to ${env}?`,
      requestedSchema: z.object({ confirm: z.boolean() }),
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Deployment skipped.';
    return `Deployed to ${env}.`;
  },
});
// #endregion elicit

// #region content
// 4. Rich content: images (bytes, `{ path }` or `{ url }`) and links to resources.
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const logo = defineTool({
  name: 'logo',
  execute: async () => [
    await imageContent(PIXEL), // MIME type sniffed: image/png
    resourceLink({ uri: 'file:///srv/brand/guide.md', name: 'brand guide' }),
  ],
});
// #endregion content

// #region other-schemas
// 4b. ArkType and Valibot schemas as they are (Valibot's JSON Schema comes from @valibot/to-json-schema),
// and one bare content block as the whole result.
const range = defineTool({
  name: 'range',
  inputSchema: type({ from: 'number.integer', to: 'number.integer' }),
  outputSchema: type({ values: 'number[]' }),
  execute: ({ from, to }) => ({ values: Array.from({ length: Math.max(to - from, 0) }, (_, i) => from + i) }),
});
const greet = defineTool({
  name: 'greet',
  inputSchema: v.object({ name: v.pipe(v.string(), v.minLength(1)) }),
  execute: ({ name }) => `Hello, ${name}!`,
});
const pixel = defineTool({ name: 'pixel', execute: () => imageContent(PIXEL) }); // an image block, not JSON text
// #endregion other-schemas

// #region access
// 5. Access control: hidden from callers whose auth lacks the scope.
const admin = defineTool({
  name: 'purge_cache',
  canAccess: (auth) => auth?.scopes.includes('admin') ?? false,
  execute: () => 'Cache purged.',
});
// #endregion access

// #region llm-chat
// 6. An llm-chat style tool object, adapted without depending on that package.
const legacyTool = fromLlmChatTool({
  name: 'get_time',
  description: 'Current time',
  parameters: { type: 'object', properties: {} },
  execute: () => [{ result: new Date().toISOString(), status: 'success' }],
});
// #endregion llm-chat

// #region session
// 7. Per-session tools (own state per connection) and events.
class NotepadTool extends Tool<{ line?: string }> {
  readonly #lines: string[] = [];
  constructor() {
    super({ name: 'notepad', inputSchema: z.object({ line: z.string().optional() }) });
  }
  execute({ line }: { line?: string }) {
    if (line) this.#lines.push(line);
    return this.#lines.join('\n') || '(empty)';
  }
  dispose() {
    this.#lines.length = 0;
  }
}

const server = new StdioMcpServer(
  { name: 'tour', version: '1.0.0', instructions: 'A tour of tool features.' },
  { sessionTools: () => [new NotepadTool()] },
);
server.registerTool(new ToolPackage([new ReportTool(), stats, deploy, logo, admin, legacyTool], { name: 'tour' }));
server.events.on('toolCallFinished', ({ name, durationMs, isError }) =>
  process.stderr.write(`${name} took ${durationMs.toFixed(1)} ms${isError ? ' (error)' : ''}\n`),
);
server.events.on('toolToggled', ({ disabled }) => process.stderr.write(`persist disabled set: ${disabled}\n`));
// #endregion session
server.registerTool(new ToolPackage([range, greet, pixel], { name: 'other schemas' }));

await server.start();
await server.waitUntilClosed();
