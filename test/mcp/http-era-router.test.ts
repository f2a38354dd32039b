import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { isLegacyHttpRequest } from '../../src/mcp/transports/http/era-router.js';

const MODERN_META = {
  [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Bodies and headers covering every routing outcome, valid and malformed. */
const CASES: Array<{ name: string; body: unknown; headers?: Record<string, string>; method?: string }> = [
  {
    name: 'initialize',
    body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
  },
  { name: 'tools/call', body: { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x', arguments: {} } } },
  {
    name: 'legacy header',
    body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    headers: { 'mcp-protocol-version': '2025-06-18' },
  },
  { name: 'notification', body: { jsonrpc: '2.0', method: 'notifications/initialized' } },
  {
    name: 'progress _meta',
    body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { _meta: { progressToken: 1 } } },
  },
  { name: 'modern envelope', body: { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: MODERN_META } } },
  {
    name: 'modern envelope + header',
    body: { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { _meta: MODERN_META } },
    headers: { 'mcp-protocol-version': '2026-07-28' },
  },
  {
    name: 'bad envelope',
    body: { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: { [PROTOCOL_VERSION_META_KEY]: 7 } } },
  },
  {
    name: 'modern header, no envelope',
    body: { jsonrpc: '2.0', id: 6, method: 'tools/list' },
    headers: { 'mcp-protocol-version': '2026-07-28' },
  },
  {
    name: 'unknown header version',
    body: { jsonrpc: '2.0', id: 6, method: 'tools/list' },
    headers: { 'mcp-protocol-version': '1999-01-01' },
  },
  {
    name: 'initialize + modern header',
    body: { jsonrpc: '2.0', id: 7, method: 'initialize', params: {} },
    headers: { 'mcp-protocol-version': '2026-07-28' },
  },
  {
    name: 'modern envelope, other header version',
    body: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x', _meta: MODERN_META } },
    headers: { 'mcp-protocol-version': '2025-11-25' },
  },
  {
    name: 'modern envelope, Mcp-Method header of another method',
    body: { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x', _meta: MODERN_META } },
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
  },
  {
    name: 'initialize with a modern envelope',
    body: {
      jsonrpc: '2.0',
      id: 7,
      method: 'initialize',
      params: { protocolVersion: '2026-07-28', _meta: MODERN_META },
    },
  },
  {
    name: 'initialize with a bad envelope',
    body: { jsonrpc: '2.0', id: 7, method: 'initialize', params: { _meta: { [PROTOCOL_VERSION_META_KEY]: 7 } } },
  },
  {
    name: 'modern envelope naming a related task',
    body: {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'x', _meta: { ...MODERN_META, 'io.modelcontextprotocol/related-task': { taskId: 't' } } },
    },
  },
  {
    name: 'modern notification',
    body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, _meta: MODERN_META } },
  },
  {
    name: 'modern envelope, extra top-level key',
    body: { jsonrpc: '2.0', id: 4, method: 'tools/list', extra: 1, params: { _meta: MODERN_META } },
  },
  { name: 'response', body: { jsonrpc: '2.0', id: 8, result: {} } },
  { name: 'error response', body: { jsonrpc: '2.0', id: 8, error: { code: 1, message: 'x' } } },
  { name: 'batch', body: [{ jsonrpc: '2.0', id: 9, method: 'ping' }] },
  { name: 'empty batch', body: [] },
  { name: 'no jsonrpc', body: { id: 10, method: 'ping' } },
  { name: 'null id', body: { jsonrpc: '2.0', id: null, method: 'ping' } },
  { name: 'array params', body: { jsonrpc: '2.0', id: 11, method: 'ping', params: [1] } },
  { name: 'string body', body: 'hello' },
  { name: 'GET', body: undefined, method: 'GET' },
  { name: 'DELETE', body: undefined, method: 'DELETE' },
];

describe('isLegacyHttpRequest (the dual-era router)', () => {
  it.each(CASES)(
    'routes "$name" exactly like the SDK isLegacyRequest',
    async ({ body, headers = {}, method = 'POST' }) => {
      const request = new Request('http://127.0.0.1/mcp', { method, headers });
      const expected = await isLegacyRequest(request, body);
      expect(isLegacyHttpRequest(method, (name) => request.headers.get(name) ?? undefined, body)).toBe(expected);
    },
  );
});
