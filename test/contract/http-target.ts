import { StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport as HttpV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
// The built package, like the stdio target's child process: the contract is checked on what ships.
import { HttpMcpServer } from '../../dist/index.js';
import { extraPrompt, registerFixturePrompts } from '../fixtures/fixture-prompts.mjs';
import { echoTool, fixtureTools, packageRoundTrip } from '../fixtures/fixture-tools.mjs';
import { connectClient, type ClientKind } from '../support/clients.js';
import type { ContractSession, ContractTarget, ServerControl } from './target.js';

/** Direct method calls: the app's settings UI lives in the same process as the server. */
function directControl(server: HttpMcpServer, setStatus: (text: string) => void): ServerControl {
  return {
    disable: async (name) => server.disableTool(name),
    enable: async (name) => server.enableTool(name),
    setDisabled: async (names) => server.setDisabledTools(names),
    registerTool: async (name) => void server.registerTool(echoTool(name)),
    removeTool: async (name) => void server.removeTool(name),
    registerAndRemovePackage: async (names) => packageRoundTrip(server, names),
    registerDocument: async (path) => void server.registerDocument(path),
    sendResourceUpdated: async (uri) => server.sendResourceUpdated(uri),
    updateStatus: async (text) => {
      setStatus(text);
      server.sendResourceUpdated('memo://status');
    },
    registerPrompt: async (name) => void server.registerPrompt(extraPrompt(name)),
    registerResource: async (uri, text) => void server.registerResource({ uri, name: uri, read: () => text }),
  };
}

/**
 * HttpMcpServer under test: one server per client, in the test process, on
 * 127.0.0.1 with a free port; the client speaks real HTTP to it (v1 SDK transport,
 * or the v2 transport in either era).
 */
export const httpTarget: ContractTarget = {
  name: 'HttpMcpServer',
  async open(kind: ClientKind, docsDir: string): Promise<ContractSession> {
    const server = new HttpMcpServer({ name: 'contract-fixture', version: '1.0.0' }, { port: 0 });
    for (const tool of fixtureTools()) server.registerTool(tool);
    server.registerFolder(docsDir);
    const setStatus = registerFixturePrompts(server);
    await server.start();
    const url = new URL(server.address.url);
    try {
      const client = await connectClient(kind, kind === 'v1' ? new HttpV1(url) : new HttpV2(url));
      return {
        client,
        control: directControl(server, setStatus),
        close: async () => {
          await client.close();
          await server.stop();
        },
      };
    } catch (error) {
      await server.stop();
      throw error;
    }
  },
};
