// The app test shown in docs/testing.md (quoted from here, so it is type-checked and run).
// It imports the package by name, as an app does (Node resolves a package's own name to its build).
// #region app-test
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StdioMcpServer, defineTool } from 'mcp-toolkit';
import { connectInMemory } from 'mcp-toolkit/testing';

/** The app's server, built the way the app builds it (not started: the test connects in memory). */
function createAppServer() {
  const server = new StdioMcpServer({ name: 'greeter', version: '1.0.0' });
  server.registerTool(
    defineTool({
      name: 'greet',
      inputSchema: z.object({ name: z.string() }),
      execute: ({ name }) => `Hello, ${name}!`,
    }),
  );
  return server;
}

describe.each(['legacy', '2026-07-28'] as const)('greeter on the %s era', (era) => {
  it('greets, and tells the client when the tool is disabled', async () => {
    const server = createAppServer();
    const { client, close } = await connectInMemory(server, { era });
    try {
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);

      const told = new Promise((resolve) => client.setNotificationHandler('notifications/tools/list_changed', resolve));
      if (era === '2026-07-28') await client.listen({ toolsListChanged: true }); // modern clients listen
      server.disableTool('greet');
      await told;
      expect((await client.listTools()).tools).toEqual([]);
    } finally {
      await close();
      await server.stop();
    }
  });
});
// #endregion app-test
