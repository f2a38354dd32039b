/**
 * Tasks tour: every feature of docs/tasks.md in one runnable server.
 * Run: npm run build:examples && node .tmp/examples/examples/tasks.js
 * (or compile with tsc); talk to it over stdio with any MCP client that speaks tasks.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { StdioMcpServer, UserError, defineTool } from '../src/index.js';
import { MemoryTaskStore, type TaskStore } from '../src/public/tasks.js';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

// #region policy
const store: TaskStore = new MemoryTaskStore(); // the default; a shared store lets tasks outlive the process
const server = new StdioMcpServer(
  { name: 'tasks-example', version: '1.0.0' },
  {
    tasks: {
      store,
      defaultTtlMs: 60 * 60_000, // a task lives 1 h unless the client asks for less
      maxTtlMs: 24 * 60 * 60_000, // and never more than 24 h
      pollIntervalMs: 2_000, // hint sent to clients: poll every 2 s
      resultRetentionMs: 5 * 60_000, // a finished result stays at least 5 min
      maxTasksPerPrincipal: 10, // running tasks per client...
      maxTasks: 1_000, // ...and in this process
    },
  },
);
// #endregion policy

// #region tool
server.registerTool(
  defineTool({
    name: 'build_report',
    description: 'Builds a long report; runs as a task when the client can take one.',
    taskSupport: 'optional', // 'forbidden' (default) | 'optional' | 'required'
    inputSchema: z.object({ pages: z.number().int().min(1).max(500) }),
    execute: async ({ pages }: { pages: number }, context) => {
      for (let page = 1; page <= pages; page++) {
        // In a task this becomes the task's statusMessage.
        await context.reportProgress({ progress: page, total: pages, message: `page ${page}/${pages}` });
        await sleep(100, context.signal); // aborts on tasks/cancel, TTL expiry or server stop
      }
      return `Report with ${pages} pages is ready.`;
    },
  }),
);
// #endregion tool

// #region input
server.registerTool(
  defineTool({
    name: 'delete_files',
    taskSupport: 'required',
    inputSchema: z.object({ pattern: z.string() }),
    execute: async ({ pattern }: { pattern: string }, context) => {
      // The task waits in `input_required` until the client answers, then goes on.
      const answer = await context.elicit({
        message: `Delete every file matching ${pattern}?`,
        requestedSchema: z.object({ confirm: z.boolean() }),
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) throw new UserError('Nothing deleted.');
      return `Deleted the files matching ${pattern}.`;
    },
  }),
);
// #endregion input

// #region outcomes
server.registerTool(
  defineTool({
    name: 'import_feed',
    taskSupport: 'optional',
    inputSchema: z.object({ url: z.string() }),
    execute: async ({ url }: { url: string }, context) => {
      if (!url.startsWith('https://')) {
        throw new UserError('Use an https:// URL.'); // task: completed, with result.isError true
      }
      const response = await fetch(url, { signal: context.signal });
      if (response.status === 503) {
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'Feed service unavailable.'); // task: failed
      }
      return `Imported ${(await response.text()).length} bytes.`;
    },
  }),
);
// #endregion outcomes

// #region events
server.events.on('taskCreated', ({ taskId, toolName, owner }) => {
  process.stderr.write(`task ${taskId} (${toolName}) created for ${owner}\n`);
});
server.events.on('taskStatusChanged', ({ taskId, status, statusMessage }) => {
  process.stderr.write(`task ${taskId}: ${status}${statusMessage ? ` (${statusMessage})` : ''}\n`);
});
// #endregion events

await server.start();
