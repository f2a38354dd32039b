// The floor (issue #30): no framework at all. node:http (or a readline loop on stdio) that parses
// each JSON-RPC message and answers a canned result: what every MCP server pays at least, so the
// other systems' server CPU per call can be read as a multiple of it.
import http from 'node:http';
import process from 'node:process';
import { createInterface } from 'node:readline';

const INITIALIZE = {
  protocolVersion: '2025-11-25',
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: 'floor', version: '1.0.0' },
};
const CALL = { content: [{ type: 'text', text: 'hello' }] };
const LIST = {
  tools: [{ name: 'echo', description: 'Echoes text back.', inputSchema: { type: 'object', properties: {} } }],
};

/** The canned result for `method` (every request is answered; nothing is validated beyond JSON). */
const resultOf = (method) => (method === 'initialize' ? INITIALIZE : method === 'tools/list' ? LIST : CALL);

/** The response line for one parsed message, or undefined for a notification. */
function answer(message) {
  if (message.id === undefined) return undefined;
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result: resultOf(message.method) });
}

export async function startHttp() {
  let sessions = 0;
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let message;
      try {
        message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return res.writeHead(400).end();
      }
      const body = answer(message);
      if (body === undefined) return res.writeHead(202).end();
      const headers = { 'Content-Type': 'application/json' };
      if (message.method === 'initialize') headers['Mcp-Session-Id'] = `floor-${(sessions += 1)}`;
      res.writeHead(200, headers).end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    held: () => sessions,
    toggle: () => {},
    stop: () => new Promise((resolve) => (server.close(resolve), server.closeAllConnections())),
  };
}

export async function startStdio() {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (!line) return;
    const body = answer(JSON.parse(line));
    if (body !== undefined) process.stdout.write(`${body}\n`);
  });
  lines.on('close', () => process.exit(0));
}
