import { describe, expect, it } from 'vitest';
import { inspectorCommand } from '../../src/cli/connect-help.js';
import { devConnectHelp } from '../../src/cli/dev/dev-help.js';

// `dev` names the same Inspector command as `serve`'s banner: on Node older than 22.19 (which Inspector 0.16+
// needs) it runs Inspector with Node 22 from the npm registry; it printed the plain `npx` form on every Node.
describe("dev's connect help", () => {
  const inspector = inspectorCommand().join(' ');

  it('names the Inspector command that runs on this Node, for a server file and for a URL', () => {
    const file = devConnectHelp('my server', { command: 'node', args: ['server.js'] });
    expect(file[1]).toBe(`  MCP Inspector:  ${inspector} node server.js`);
    const url = devConnectHelp('my server', { url: new URL('http://127.0.0.1:3000/mcp') });
    expect(url[1]).toBe(`  MCP Inspector:  ${inspector} --transport http --server-url http://127.0.0.1:3000/mcp`);
    if (Number(process.versions.node.split('.')[0]) < 22) expect(inspector).toContain('-p node@22');
  });
});
