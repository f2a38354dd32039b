/**
 * The README's examples, type-checked by `npm run typecheck` and quoted verbatim by README.md
 * (checked by test/docs/examples-quoted.test.ts). Imports the package by name, as an app does.
 */
// #region library
import { z } from 'zod';
import { StdioMcpServer, defineTool, ToolPackage, createDocumentTools } from 'mcp-toolkit';

class AppServer extends StdioMcpServer {
  protected override async onStop() {
    // close app resources here
  }
}

const server = new AppServer({ name: 'my-app', version: '1.0.0' });

const greeter = server.registerTool(
  new ToolPackage(
    [
      defineTool({
        name: 'greet',
        description: 'Greets someone',
        inputSchema: z.object({ name: z.string() }),
        execute: ({ name }) => `Hello, ${name}!`, // name: string, inferred from the schema
      }),
    ],
    { name: 'greeter' },
  ),
);
server.registerFolder({ path: './knowledge', extensions: ['md', 'pdf'] });
server.registerTool(createDocumentTools(server.documents));
await server.start();

// Later, from the app's settings UI: every connected client is told once per change.
server.disableTool('greet');
server.setDisabledTools(['greet', 'read_document']); // replaces the set
server.setDisabledTools([]); // re-enables everything
greeter.remove(); // the whole package, one notification
// #endregion library

// #region http
import { HttpMcpServer, AuthenticationError } from 'mcp-toolkit';

const http = new HttpMcpServer(
  { name: 'my-app', version: '1.0.0' },
  {
    port: 3000, // binds 127.0.0.1 unless `host` says otherwise
    authenticate: async (request) => {
      const token = request.headers.authorization?.replace(/^Bearer /, '');
      if (!token || token !== process.env.APP_TOKEN) throw new AuthenticationError('Invalid token');
      return { token, clientId: 'app', scopes: ['tools'] };
    },
  },
);
await http.start();
console.error(`MCP endpoint: ${http.address.url}`);
// #endregion http
