/**
 * The tasks-extension fixtures of the conformance suite 0.2.0-alpha.12 (`tasks-*` scenarios,
 * SEP-2663), built from the toolkit's public API: a tool opts into tasks with `taskSupport`
 * and keeps one `execute`; `context.signal` aborts on `tasks/cancel`; `context.elicit()`
 * parks the task in `input_required` until `tasks/update` answers it.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { defineTool, UserError, type HttpMcpServer, type ToolContext } from '../src/index.js';

/** Sleeps `ms`, or rejects with the signal's reason when the call is cancelled. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

const confirmSchema = z.object({ confirm: z.boolean() });
const nameSchema = z.object({ name: z.string() });

function accepted(answer: Awaited<ReturnType<ToolContext['elicit']>>, field: string): string | undefined {
  const value = answer.action === 'accept' ? answer.content?.[field] : undefined;
  return value === undefined ? undefined : String(value);
}

/** Registers `greet`, `slow_compute`, `failing_job`, `protocol_error_job`, `confirm_delete`, `multi_input`, `test_tool_with_task`. */
export function registerTaskFixtures(server: HttpMcpServer): void {
  server.registerTool(
    defineTool({
      name: 'greet',
      description: 'Sync-only: returns "Hello, {name}!".',
      inputSchema: z.object({ name: z.string() }),
      execute: ({ name }) => `Hello, ${name}!`,
    }),
  );
  server.registerTool(
    defineTool({
      name: 'slow_compute',
      description: 'Task-capable: sleeps `seconds`, reporting progress, then returns a result.',
      taskSupport: 'optional',
      inputSchema: z.object({ seconds: z.number().min(0).max(3600), label: z.string().optional() }),
      execute: async ({ seconds, label }, context) => {
        for (let done = 0; done < seconds; done++) {
          await context.reportProgress({ progress: done, total: seconds, message: `${done}/${seconds} s` });
          await sleep(1000, context.signal);
        }
        return `Computed ${label ?? 'result'} after ${seconds} s`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'failing_job',
      description: 'Task-only: fails with a tool error after about 1 s.',
      taskSupport: 'required',
      execute: async (_args, context) => {
        await sleep(1000, context.signal);
        throw new UserError('failing_job failed on purpose.');
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'protocol_error_job',
      description: 'Task-capable: ends in a JSON-RPC (protocol) error.',
      taskSupport: 'optional',
      execute: async (_args, context) => {
        await sleep(200, context.signal);
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'protocol_error_job broke on purpose.');
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'confirm_delete',
      description: 'Task-capable: asks for confirmation (elicitation), then reports what it did.',
      taskSupport: 'optional',
      inputSchema: z.object({ filename: z.string() }),
      execute: async ({ filename }, context) => {
        const answer = await context.elicit({
          message: `Delete ${filename}?`,
          requestedSchema: confirmSchema,
        });
        return accepted(answer, 'confirm') === 'true' ? `Deleted ${filename}` : `Kept ${filename}`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'multi_input',
      description: 'Task-capable: asks two questions at once, completes when both are answered.',
      taskSupport: 'optional',
      execute: async (_args, context) => {
        const [first, second] = await Promise.all([
          context.elicit({ key: 'first', message: 'First name?', requestedSchema: nameSchema }),
          context.elicit({ key: 'second', message: 'Second name?', requestedSchema: nameSchema }),
        ]);
        return `Got ${accepted(first, 'name')} and ${accepted(second, 'name')}`;
      },
    }),
  );
  server.registerTool(
    defineTool({
      name: 'test_tool_with_task',
      description: 'Task-only: asks for the user name (multi-round-trip), then works as a task.',
      taskSupport: 'required',
      // Input asked within the first 500 ms is a synchronous input_required round; the call
      // becomes a task once it runs longer.
      taskAfterMs: 500,
      execute: async (_args, context) => {
        const answer = await context.elicit({ key: 'user_name', message: 'Your name?', requestedSchema: nameSchema });
        await sleep(1500, context.signal);
        return `Hello, ${accepted(answer, 'name') ?? 'stranger'}!`;
      },
    }),
  );
}
