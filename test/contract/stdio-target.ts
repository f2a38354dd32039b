import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectClient, type ClientKind } from '../support/clients.js';
import type { ContractSession, ContractTarget, ServerControl } from './target.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/stdio-fixture.mjs', import.meta.url));

/** Waits for the fixture's `CONTROL_PORT=n` line on its stderr. */
function controlPort(stderr: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`fixture printed no control port; stderr: ${buffered}`)), 30_000);
    stderr.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /CONTROL_PORT=(\d+)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
}

function httpControl(port: number): ServerControl {
  const call = async (action: string, params: Record<string, string>) => {
    const response = await fetch(`http://127.0.0.1:${port}/${action}?${new URLSearchParams(params)}`);
    if (!response.ok) throw new Error(`control ${action} failed: ${await response.text()}`);
  };
  return {
    disable: (name) => call('disable', { name }),
    enable: (name) => call('enable', { name }),
    setDisabled: (names) => call('set-disabled', { names: names.join(',') }),
    registerTool: (name) => call('register-tool', { name }),
    removeTool: (name) => call('remove-tool', { name }),
    registerAndRemovePackage: (names) => call('package-round-trip', { names: names.join(',') }),
    registerDocument: (path) => call('register-document', { path }),
    sendResourceUpdated: (uri) => call('send-resource-updated', { uri }),
    updateStatus: (text) => call('update-status', { text }),
    registerPrompt: (name) => call('register-prompt', { name }),
    registerResource: (uri, text) => call('register-resource', { uri, text }),
  };
}

/** StdioMcpServer under test: one real child process per client, as Claude Desktop runs it. */
export const stdioTarget: ContractTarget = {
  name: 'StdioMcpServer',
  async open(kind: ClientKind, docsDir: string): Promise<ContractSession> {
    const params = { command: process.execPath, args: [FIXTURE, docsDir], stderr: 'pipe' as const };
    const transport = kind === 'v1' ? new StdioV1(params) : new StdioV2(params);
    const port = controlPort(transport.stderr as Readable);
    const client = await connectClient(kind, transport);
    return { client, control: httpControl(await port), close: () => client.close() };
  },
};
