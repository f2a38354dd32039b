import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ToolPackage } from '../../src/registry/tool-package.js';
import { InMemoryServer } from './in-memory.js';
import { PNG } from './media.js';

/** One request as the REST server saw it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query, e.g. `/v2/pet/7`. */
  path: string;
  /** The raw query string without `?` (`tags=a&tags=b`). */
  query: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A running Petstore-like REST server on 127.0.0.1 that records every request. */
export interface PetstoreServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** The last request recorded (throws when none). */
  last(): RecordedRequest;
  close(): Promise<void>;
}

/** The classic Swagger Petstore as OpenAPI 3.0, from the `@readme/oas-examples` devDependency (MIT). */
export const PETSTORE_SPEC = createRequire(import.meta.url).resolve('@readme/oas-examples/3.0/json/petstore.json');

/**
 * Writes {@link PETSTORE_SPEC} split over several files into a fresh temp folder and returns the root
 * file: one file per path item under `paths/`, schemas and request bodies in `components.json`, every
 * `#/components/...` ref rewritten to point there; its server URL is the relative `/v2`.
 */
export function writePetstoreSplit(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'petstore-split-'));
  mkdirSync(path.join(dir, 'paths'));
  const document = JSON.parse(readFileSync(PETSTORE_SPEC, 'utf8')) as {
    paths: Record<string, unknown>;
    components: { securitySchemes: unknown; [key: string]: unknown };
  };
  const refsTo = (value: unknown, file: string) =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/components/', `"${file}#/`)) as unknown;
  const { securitySchemes, ...shared } = document.components;
  writeFileSync(path.join(dir, 'components.json'), JSON.stringify(refsTo(shared, '')));
  const paths: Record<string, { $ref: string }> = {};
  Object.entries(document.paths).forEach(([route, item], index) => {
    writeFileSync(path.join(dir, 'paths', `${index}.json`), JSON.stringify(refsTo(item, '../components.json')));
    paths[route] = { $ref: `./paths/${index}.json` };
  });
  const root = path.join(dir, 'openapi.json');
  writeFileSync(
    root,
    JSON.stringify({ ...document, servers: [{ url: '/v2' }], paths, components: { securitySchemes } }),
  );
  return root;
}

/** The Petstore spec's operationIds, in document order. */
export const PETSTORE_OPERATIONS = [
  'updatePet',
  'addPet',
  'findPetsByStatus',
  'findPetsByTags',
  'getPetById',
  'updatePetWithForm',
  'deletePet',
  'uploadFile',
  'getInventory',
  'placeOrder',
  'getOrderById',
  'deleteOrder',
  'createUser',
  'createUsersWithArrayInput',
  'createUsersWithListInput',
  'loginUser',
  'logoutUser',
  'getUserByName',
  'updateUser',
  'deleteUser',
];

const pet = (id: number) => ({ id, name: 'doggie', photoUrls: [], status: 'available', tags: [{ id: 1, name: 'a' }] });

function send(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    ...(body !== undefined && { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }),
    ...headers,
  });
  res.end(text);
}

/** Answers like petstore.swagger.io for the routes the tests use; everything under `/v2`. */
function route(request: RecordedRequest, res: http.ServerResponse, liveSpec: string): void {
  const { method, path } = request;
  const petId = /^\/v2\/pet\/(\d+)$/.exec(path)?.[1];
  if (method === 'GET' && path === '/v2/openapi.json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(liveSpec);
  }
  if ((method === 'POST' || method === 'PUT') && path === '/v2/pet') {
    return send(res, 200, JSON.parse(request.body.toString('utf8')));
  }
  if (method === 'GET' && (path === '/v2/pet/findByTags' || path === '/v2/pet/findByStatus')) {
    return send(res, 200, [pet(1), pet(2)]);
  }
  if (method === 'GET' && petId) {
    return petId === '404'
      ? send(res, 404, { code: 404, message: 'Pet not found' })
      : send(res, 200, pet(Number(petId)));
  }
  if (method === 'DELETE' && petId) return send(res, 200, undefined);
  if (method === 'POST' && /^\/v2\/pet\/\d+\/uploadImage$/.test(path)) {
    return send(res, 200, { code: 200, type: 'unknown', message: `${request.body.byteLength} bytes` });
  }
  if (method === 'GET' && path === '/v2/store/inventory') {
    if (request.headers.api_key !== 'secret') return send(res, 401, { code: 401, message: 'Missing api key' });
    return send(res, 200, { available: 3, sold: 1 });
  }
  if (method === 'GET' && path === '/v2/store/order/5') {
    return send(res, 503, 'Down for maintenance.', { 'retry-after': '7' });
  }
  if (method === 'GET' && path === '/v2/user/login') return send(res, 200, 'logged in user session:1');
  if (method === 'GET' && path === '/v2/logo') {
    res.writeHead(200, { 'content-type': 'image/png' });
    return void res.end(PNG);
  }
  if (path === '/slow') return void setTimeout(() => send(res, 200, 'late'), 2_000);
  send(res, 404, { code: 404, message: `No route ${method} ${path}` });
}

/** Starts the REST server on 127.0.0.1 (port chosen by the OS). */
export async function startPetstoreServer(): Promise<PetstoreServer> {
  // The live Petstore serves its spec with a relative server URL.
  const document = await SwaggerParser.parse(PETSTORE_SPEC);
  const liveSpec = JSON.stringify({ ...document, servers: [{ url: '/v2' }] });
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.search.slice(1),
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      if (url.pathname !== '/v2/openapi.json') requests.push(request);
      route(request, res, liveSpec);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    last() {
      const request = requests.at(-1);
      if (!request) throw new Error('The REST server has seen no request.');
      return request;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What {@link petstoreSuite} gives a test file. */
export interface PetstoreSuite {
  /** The REST server, started before the file's tests; its recorded requests are cleared after each test. */
  readonly rest: PetstoreServer;
  /** Serves `pkg` on a fresh in-memory MCP server (stopped after the test, or by {@link stopServer}) and connects a client. */
  serve(pkg: ToolPackage, era?: 'legacy' | 'modern'): Promise<Client>;
  /** Stops the server `serve` started, so a test can serve again. */
  stopServer(): Promise<void>;
}

/** Starts the REST server for a test file and gives each test an MCP server over it. */
export function petstoreSuite(): PetstoreSuite {
  let rest: PetstoreServer | undefined;
  let server: InMemoryServer | undefined;
  const stopServer = async () => {
    await server?.stop();
    server = undefined;
  };
  beforeAll(async () => {
    rest = await startPetstoreServer();
  });
  afterAll(() => rest?.close());
  afterEach(async () => {
    await stopServer();
    if (rest) rest.requests.length = 0;
  });
  return {
    get rest() {
      if (!rest) throw new Error('The REST server starts in beforeAll.');
      return rest;
    },
    async serve(pkg, era = 'legacy') {
      await stopServer();
      server = new InMemoryServer();
      server.registerTool(pkg);
      await server.start();
      return server.connect(era);
    },
    stopServer,
  };
}

/** The text of a tool result's text blocks, joined. */
export function resultText(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('');
}
