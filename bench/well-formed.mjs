// What making every outgoing message well-formed Unicode costs (#17 item 8), next to the
// JSON.stringify every transport does anyway. Run: node bench/well-formed.mjs
// (the module is internal, so it is bundled from src/ into a temporary file first, with rolldown
// as scripts/bundle.mjs does).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'rolldown';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(path.join(os.tmpdir(), 'well-formed-bench-'));
await build({
  cwd: root,
  input: { 'well-formed': 'src/mcp/wire/well-formed.ts' },
  platform: 'node',
  logLevel: 'warn',
  output: { dir: out, format: 'esm', entryFileNames: '[name].mjs' },
});
const { wellFormed } = await import(pathToFileURL(path.join(out, 'well-formed.mjs')).href);
rmSync(out, { recursive: true, force: true });

function tool(i) {
  return {
    name: `tool_${i}`,
    description: `Tool number ${i}: does something useful with its input and returns text.`,
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look for' }, limit: { type: 'number' } },
      required: ['query'],
    },
  };
}

const cases = {
  'tools/list, 1,000 tools (fresh objects)': () => ({
    jsonrpc: '2.0',
    id: 1,
    result: { tools: Array.from({ length: 1000 }, (_, i) => tool(i)) },
  }),
  'tools/list, 1,000 tools (cached frozen list)': (() => {
    const tools = Object.freeze(Array.from({ length: 1000 }, (_, i) => Object.freeze(tool(i))));
    return () => ({ jsonrpc: '2.0', id: 1, result: { tools } });
  })(),
  'tools/call, 1 MiB text result': () => ({
    jsonrpc: '2.0',
    id: 1,
    result: { content: [{ type: 'text', text: 'lorem ipsum '.repeat(87_382) }] },
  }),
  'tools/call, small result': () => ({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } }),
};

function time(fn, rounds) {
  for (let i = 0; i < Math.min(rounds, 20); i += 1) fn(); // warm up
  const start = performance.now();
  for (let i = 0; i < rounds; i += 1) fn();
  return ((performance.now() - start) / rounds) * 1000; // µs per call
}

console.log('| message | JSON.stringify (µs) | wellFormed (µs) | wellFormed / stringify |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, make] of Object.entries(cases)) {
  const message = make();
  const rounds = name.includes('1 MiB') ? 50 : name.includes('small') ? 100_000 : 300;
  const stringify = time(() => JSON.stringify(message), rounds);
  const check = time(() => wellFormed(message), rounds);
  console.log(
    `| ${name} | ${stringify.toFixed(1)} | ${check.toFixed(1)} | ${((check / stringify) * 100).toFixed(0)} % |`,
  );
}
