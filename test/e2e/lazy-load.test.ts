// #12: a stdio server pays only for what it uses. Importing the package root and starting a one-tool
// StdioMcpServer must not load the HTTP stack, the logger, the document layer or the cluster client
// (bench W0 measures the time; this test keeps a stray static import from bringing them back).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LAZY = [
  'express',
  'cors',
  '@hono/node-server',
  'pino',
  'mime-types',
  'turndown',
  'picomatch',
  'jszip',
  'fflate',
  'redis',
  '@apidevtools/swagger-parser',
  '@valibot/to-json-schema',
];

const SCRIPT = `
import Module from 'node:module';
import { PassThrough } from 'node:stream';
const { defineTool, StdioMcpServer } = await import('./dist/index.js');
const server = new StdioMcpServer({ name: 'lazy', version: '1.0.0' }, { stdin: new PassThrough(), stdout: new PassThrough() });
server.registerTool(defineTool({ name: 'echo', execute: () => 'hi' }));
await server.start();
const loaded = new Set(Object.keys(Module._cache).map((file) => file.replace(/.*node_modules\\/((@[^/]+\\/)?[^/]+).*/, '$1')));
process.stdout.write(JSON.stringify([...loaded]));
await server.stop();
`;

describe('what a one-tool stdio server loads (package root import)', () => {
  it('loads none of the HTTP, logging, document or cluster dependencies', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', SCRIPT], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const loaded = JSON.parse(run.stdout) as string[];
    expect(LAZY.filter((name) => loaded.includes(name))).toEqual([]);
  });

  // #30 (W0): ESM-only packages do not show in Module._cache; a resolve hook lists what the ESM loader loads.
  it('loads no ESM-only dependency it does not use (jose, for authorization)', () => {
    const hooks = `import { writeSync } from 'node:fs';
      export async function resolve(specifier, context, next) {
        const resolved = await next(specifier, context);
        writeSync(2, 'LOADED ' + resolved.url + '\\n');
        return resolved;
      }`;
    const register = `import { register } from 'node:module'; register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));`;
    const run = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', SCRIPT],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    const loaded = run.stderr.split('\n').filter((line) => line.startsWith('LOADED '));
    expect(loaded.some((line) => line.includes('/@modelcontextprotocol/server/'))).toBe(true); // the hook saw the loads
    expect(loaded.filter((line) => line.includes('/node_modules/jose/'))).toEqual([]);
  });
});
