/**
 * Runs the notes app: `node main.js [--port 3000] [--docs <folder>] [--data <file.json>]`.
 * Build it with `npm run build:examples`, then, from the repository root:
 *   node .tmp/examples/examples/llm-chat-app/main.js --docs examples/llm-chat-app/docs --data notes.json
 * It prints `listening <url>` on stderr; SIGINT/SIGTERM stop it (onStop() saves the data file).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { NotesApp } from './app.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3000' },
    docs: { type: 'string', default: path.resolve('examples/llm-chat-app/docs') },
    data: { type: 'string' },
  },
});

const app = new NotesApp({ port: Number(values.port), docsDir: values.docs, dataFile: values.data });
await app.start();
process.stderr.write(`listening ${app.address.url}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.stop().then(() => {
      const { toolCalls, failedToolCalls, resourceReads } = app.stats;
      process.stderr.write(`stopped: ${toolCalls} tool calls (${failedToolCalls} failed), ${resourceReads} reads\n`);
    });
  });
}
