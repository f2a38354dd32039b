/**
 * Composition: the snippets of docs/composition.md, type-checked by `npm run typecheck` and quoted
 * verbatim (checked by test/docs/examples-quoted.test.ts).
 */
import { HttpMcpServer, StdioMcpServer, ToolPackage, defineTool } from 'mcp-toolkit';
import type { UpstreamStatus } from 'mcp-toolkit/composition';

const gateway = new HttpMcpServer({ name: 'my-gateway', version: '1.0.0' });

// #region upstreams
// A child process over stdio: its tools are listed as files_read_text_file, files_list_directory, ...
const files = gateway.addUpstream({
  name: 'files',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/shared'],
});
// A Streamable HTTP endpoint (either protocol era), with a bearer token.
gateway.addUpstream({
  name: 'tickets',
  url: 'https://tickets.internal.example/mcp',
  headers: { Authorization: `Bearer ${process.env.TICKETS_TOKEN}` },
});
await gateway.start(); // serves at once; upstream tools arrive as each upstream connects
try {
  await files.whenConnected({ timeoutMs: 60_000 }); // rejects (UpstreamError) if not connected by then
} catch (error) {
  console.error((error as Error).message); // ... did not connect within 60000 ms (retrying, 3 failed attempts; last error: ...)
}
gateway.disableTool('files_write_file'); // toggled, persisted and fanned out like a local tool, connected or not
// #endregion upstreams

// #region states
const report = (status: UpstreamStatus) => `${status.name}: ${status.state} (${status.tools} tools)`;
console.error(gateway.upstreams.map(report).join('\n')); // files: connected (14 tools) ...
// #endregion states

// #region mount
const billing = new StdioMcpServer({ name: 'billing', version: '1.0.0' });
billing.registerTool(defineTool({ name: 'invoice', execute: () => 'INV-1' }));
const mounted = gateway.mount(billing, { namespace: 'billing' }); // billing_invoice, live
billing.registerTool(defineTool({ name: 'refund', execute: () => 'ok' })); // billing_refund appears too
gateway.mount(new ToolPackage([defineTool({ name: 'ping', execute: () => 'pong' })]), { namespace: 'util' });
mounted.unmount(); // billing_* leave in one change
// #endregion mount
