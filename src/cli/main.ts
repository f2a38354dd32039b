#!/usr/bin/env node
import module from 'node:module';

// MCP clients start this command again for every session, so its start-up is paid over and over. On Node >= 22.8,
// V8's compiled code is kept on disk (`os.tmpdir()/node-compile-cache`, or `NODE_COMPILE_CACHE`: Node's own default,
// as other CLIs use it) and a later start compiles nothing it compiled before (docs/performance.md, "Cold start,
// ninth round"). `NODE_DISABLE_COMPILE_CACHE=1` turns it off; Node 20 has no such API. The program is imported after
// the call, so that its whole module graph is cached.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// `serve --stdio`, as a client starts it, skips commander (fast-serve.ts); any other command line goes to commander.
if (!(await import('./fast-serve.js')).serveFast(process.argv.slice(2)))
  (await import('./program.js')).runProgram(process.argv);
