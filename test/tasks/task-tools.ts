// Tools shared by the tasks tests: a slow tool reporting progress, one that throws a protocol
// error, one that asks for input; `sleep` rejects with the signal's reason when aborted.
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { defineTool } from '../../src/registry/tool.js';

/** Waits `ms`; rejects with `signal.reason` (after calling `onAbort`) when the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal, onAbort?: (reason: unknown) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      onAbort?.(signal.reason);
      reject(signal.reason as Error);
    });
  });
}

/** `slow({ ms })`: reports progress "half way", sleeps, answers `slept <ms>` (+ structuredContent). */
export function slowTool(onAbort?: (reason: unknown) => void) {
  return defineTool({
    name: 'slow',
    taskSupport: 'optional',
    inputSchema: z.object({ ms: z.number() }),
    execute: async ({ ms }, context) => {
      await context.reportProgress({ progress: 1, total: 2, message: 'half way' });
      await sleep(Number(ms), context.signal, onAbort);
      return { content: [{ type: 'text' as const, text: `slept ${ms}` }], structuredContent: { ms } };
    },
  });
}

/** A tool throwing a JSON-RPC error (-32603 `message`): the task ends `failed`. */
export function protocolErrorTool(name: string, taskSupport: 'optional' | 'required', message: string) {
  return defineTool({
    name,
    taskSupport,
    execute: () => {
      throw new ProtocolError(ProtocolErrorCode.InternalError, message);
    },
  });
}

/** `ask`: elicits a name under key `who`, answers `hello <name>`. */
export function askTool() {
  return defineTool({
    name: 'ask',
    taskSupport: 'optional',
    execute: async (_args, context) => {
      const answer = await context.elicit({
        key: 'who',
        message: 'Name?',
        requestedSchema: z.object({ name: z.string() }),
      });
      return `hello ${String(answer.content?.name)}`;
    },
  });
}
