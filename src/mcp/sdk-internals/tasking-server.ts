import type { JSONRPCRequest, Result, ServerContext } from '@modelcontextprotocol/server';
import { SubscribingServer } from '../view/resource-subscriptions.js';
import { LEGACY_TASKS_CAPABILITY, TASKS_EXTENSION_ID } from '../view/task-wire.js';

/** Protocol revisions from this one on are the modern (2026-07-28) era; they compare as dates. */
const FIRST_MODERN_PROTOCOL_VERSION = '2026-07-28';

/** `tools/call` answers that are task handles (`CreateTaskResult`), not `CallToolResult`s. */
const taskAnswers = new WeakSet<object>();

/** Marks `result` as a task handle, so the view sends it as it is. */
export function taskAnswer<T extends object>(result: T): T {
  taskAnswers.add(result);
  return result;
}

/** Carries a task handle out of the SDK's wrapper; not an `Error`, so no stack trace is captured per call. */
class TaskAnswerEscape {
  constructor(readonly result: Result) {}
}

/**
 * A view that serves MCP tasks on top of the SDK 2.4 server, which knows neither wire form:
 *
 * - capabilities: the 2025-11-25 `tasks` capability in the `initialize` answer; the
 *   `io.modelcontextprotocol/tasks` extension (and no `tasks` slot, SEP-2663) in `server/discover`;
 * - `tools/call` may answer with a `CreateTaskResult`: the SDK's `tools/call` wrapper (the
 *   protected `_wrapHandler` hook) validates every answer as a `CallToolResult`, so a task
 *   handle is carried past that check and returned unchanged. Checked by the tasks tests,
 *   which fail if an SDK upgrade changes the hook.
 */
export class TaskingServer extends SubscribingServer {
  override getCapabilities() {
    const capabilities = super.getCapabilities();
    const version = this.getNegotiatedProtocolVersion();
    if (version !== undefined && version < FIRST_MODERN_PROTOCOL_VERSION) {
      return { ...capabilities, tasks: LEGACY_TASKS_CAPABILITY } as typeof capabilities;
    }
    const extensions = { ...(capabilities as { extensions?: object }).extensions, [TASKS_EXTENSION_ID]: {} };
    return { ...capabilities, extensions } as typeof capabilities;
  }

  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    if (method !== 'tools/call') return super._wrapHandler(method, handler);
    const inner = super._wrapHandler(method, async (request, ctx) => {
      const result = await handler(request, ctx);
      if (taskAnswers.has(result)) throw new TaskAnswerEscape(result);
      return result;
    });
    return async (request, ctx) => {
      try {
        return await inner(request, ctx);
      } catch (error) {
        if (error instanceof TaskAnswerEscape) return error.result;
        throw error;
      }
    };
  }
}
