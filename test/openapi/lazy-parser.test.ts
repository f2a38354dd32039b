// fromOpenAPI loads @apidevtools/swagger-parser (~150 CommonJS modules, ~150 ms on this machine) on
// its first call: importing mcp-toolkit/openapi and serving stdio must not pay for it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const SCRIPT = `
import Module from 'node:module';
import { PassThrough } from 'node:stream';
const parserLoaded = () => Object.keys(Module._cache).some((file) => file.includes('/@apidevtools/'));
const { defineTool, StdioMcpServer } = await import('./dist/index.js');
const { fromOpenAPI } = await import('./dist/openapi/index.js');
const server = new StdioMcpServer({ name: 'lazy', version: '1.0.0' }, { stdin: new PassThrough(), stdout: new PassThrough() });
server.registerTool(defineTool({ name: 'echo', execute: () => 'hi' }));
await server.start();
const atStart = parserLoaded();
const petstore = await fromOpenAPI('node_modules/@readme/oas-examples/3.0/json/petstore.json');
process.stdout.write(JSON.stringify({ atStart, afterCall: parserLoaded(), tools: petstore.tools.length }));
await server.stop();
`;

describe('mcp-toolkit/openapi cold start', () => {
  it('imports swagger-parser on the first fromOpenAPI call, not with the module', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ atStart: false, afterCall: true, tools: 20 });
  });
});
