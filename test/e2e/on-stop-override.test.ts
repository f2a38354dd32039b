import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/**
 * The README's pattern: an app subclass overriding onStop() without calling super. stop() must
 * still close the transport, so the process exits by itself (no listener, socket or stdin left).
 */
function script(kind: 'http' | 'stdio'): string {
  return `
import { HttpMcpServer, StdioMcpServer } from ${JSON.stringify(DIST)};
const Base = ${kind === 'http' ? 'HttpMcpServer' : 'StdioMcpServer'};
let hookRan = false;
class App extends Base {
  async onStop() { hookRan = true; }
}
const server = new App({ name: 'app', version: '1' }, ${kind === 'http' ? '{ port: 0 }' : '{}'});
await server.start();
${kind === 'http' ? "await fetch(server.address.url.replace('/mcp', '/health'));" : ''}
await server.stop();
process.stderr.write('hook=' + hookRan + ' running=' + server.isRunning + '\\n');
`;
}

describe.each(['http', 'stdio'] as const)('an onStop() override without super (%s)', (kind) => {
  it('still closes the transport: the process exits on its own', async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'onstop-')), 'app.mjs');
    writeFileSync(file, script(kind));
    // stdin stays open (a pipe nobody closes): only stop() may release it.
    const child = spawn(process.execPath, [file], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exited;
    clearTimeout(timer);
    expect(stderr).toContain('hook=true running=false');
    expect(code).toBe(0);
  });
});
