// The load generator for HTTP: node:http with a keep-alive agent and hand-written
// JSON-RPC bodies, so that the client costs little next to the server it drives.
import http from 'node:http';

export const LEGACY_VERSION = '2025-11-25';
export const MODERN_VERSION = '2026-07-28';
const MODERN_META =
  '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}';
const BASE_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** JSON-RPC bodies, built as strings. */
export const bodies = {
  initialize: (id) =>
    `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"protocolVersion":"${LEGACY_VERSION}","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`,
  initialized: () => '{"jsonrpc":"2.0","method":"notifications/initialized"}',
  call: (id, text = 'hello') =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${text}"}}}`,
  list: (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{}}`,
  modernCall: (id, text = 'hello') =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${text}"},"_meta":${MODERN_META}}}`,
  modernList: (id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list","params":{"_meta":${MODERN_META}}}`,
  listen: (id) =>
    `{"jsonrpc":"2.0","id":"listen-${id}","method":"subscriptions/listen","params":{"_meta":${MODERN_META},"notifications":{"toolsListChanged":true}}}`,
};

/** The JSON-RPC messages in a response body (plain JSON or an SSE stream). */
export function messagesOf(contentType, text) {
  if (!text) return [];
  if (!String(contentType).includes('text/event-stream')) return [JSON.parse(text)];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data:') && line.length > 6)
    .map((line) => JSON.parse(line.slice(5)));
}

/** A client for one endpoint (`http://127.0.0.1:<port>/mcp`). */
export class HttpDriver {
  constructor(port, maxSockets = 64) {
    this.port = port;
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
    this.nextId = 1;
  }

  /** POSTs `body`; resolves with status, headers and the whole response text. */
  post(body, headers = {}) {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          path: '/mcp',
          method: 'POST',
          agent: this.agent,
          headers: { ...BASE_HEADERS, ...headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** POSTs and returns the first JSON-RPC response message; throws on an HTTP or JSON-RPC error. */
  async rpc(body, headers) {
    const { status, headers: h, text } = await this.post(body, headers);
    if (status !== 200) throw new Error(`HTTP ${status}: ${text.slice(0, 300)}`);
    const reply = messagesOf(h['content-type'], text).find((m) => 'result' in m || 'error' in m);
    if (!reply || reply.error) throw new Error(`JSON-RPC error: ${text.slice(0, 300)}`);
    return reply.result;
  }

  /** Opens a legacy session (initialize + notifications/initialized); returns its id. */
  async openSession() {
    const { status, headers, text } = await this.post(bodies.initialize(this.nextId++));
    const id = headers['mcp-session-id'];
    if (status !== 200 || !id) throw new Error(`initialize: HTTP ${status} ${text.slice(0, 200)}`);
    const done = await this.post(bodies.initialized(), legacyHeaders(id));
    if (done.status >= 300) throw new Error(`initialized: HTTP ${done.status}`);
    return id;
  }

  /**
   * Opens a long-lived SSE stream (a legacy GET stream, or a POSTed modern listen) and
   * calls `onMessage` for each JSON-RPC message on it. Resolves once the response headers
   * arrived, with a function that closes the stream.
   */
  stream({ method, headers, body }, onMessage) {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          path: '/mcp',
          method,
          agent: false, // one dedicated socket per stream
          headers: { Accept: 'text/event-stream', ...(body && BASE_HEADERS), ...headers },
        },
        (res) => {
          if (res.statusCode !== 200) {
            res.resume();
            return reject(new Error(`${method} stream: HTTP ${res.statusCode}`));
          }
          let buffer = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => {
            buffer += chunk;
            let end;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const event = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              for (const line of event.split('\n')) {
                if (line.startsWith('data:') && line.length > 6) onMessage(JSON.parse(line.slice(5)));
              }
            }
          });
          res.on('error', () => {});
          resolve(() => req.destroy());
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close() {
    this.agent.destroy();
  }
}

/** Headers of a request in legacy session `id`. */
export function legacyHeaders(id) {
  return { 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': LEGACY_VERSION };
}

/** Headers of a 2026-07-28 request for `method` (and tool `name`). */
export function modernHeaders(method, name) {
  return { 'Mcp-Protocol-Version': MODERN_VERSION, 'Mcp-Method': method, ...(name && { 'Mcp-Name': name }) };
}
