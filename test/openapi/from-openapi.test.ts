import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError, OpenApiError } from '../../src/errors.js';
import { fromOpenAPI, type FromOpenApiOptions } from '../../src/openapi/index.js';
import { PNG } from '../support/media.js';
import {
  PETSTORE_OPERATIONS,
  PETSTORE_SPEC,
  petstoreSuite,
  resultText as text,
  startPetstoreServer,
  writePetstoreSplit,
} from '../support/petstore-server.js';

/** A JSON Schema read from tools/list, walked by property name in the assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- nested JSON walked by hand
type Schema = Record<string, any>;
/** SEP-986 / MCP 2025-11-25 "Tool names". */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

const suite = petstoreSuite();
// The multi-file variant, split from the npm spec by our own code into a temp folder.
const PETSTORE_SPLIT_SPEC = writePetstoreSplit();
afterAll(() => rmSync(path.dirname(PETSTORE_SPLIT_SPEC), { recursive: true, force: true }));

async function connect(
  spec: Parameters<typeof fromOpenAPI>[0],
  options: FromOpenApiOptions = {},
  era: 'legacy' | 'modern' = 'legacy',
): Promise<Client> {
  return suite.serve(await fromOpenAPI(spec, { serverUrl: `${suite.rest.origin}/v2`, ...options }), era);
}

describe('fromOpenAPI on the Swagger Petstore spec', () => {
  it('lists one tool per operation, named by operationId, with schemas from parameters and bodies', async () => {
    const client = await connect(PETSTORE_SPEC);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(PETSTORE_OPERATIONS);
    for (const tool of tools) expect(tool.name).toMatch(TOOL_NAME);

    const addPet = tools.find((tool) => tool.name === 'addPet')!;
    expect(addPet.title).toBe('Add a new pet to the store');
    expect(addPet.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    expect(addPet.inputSchema.required).toEqual(['body']);
    const body = addPet.inputSchema.properties!.body as Schema;
    // The Pet $ref resolved, nested Category and Tag $refs too; OpenAPI-only keywords gone.
    expect(body.required).toEqual(['name', 'photoUrls']);
    expect(body.properties.category.properties.name).toEqual({ type: 'string' });
    expect(body.properties.tags.items.properties).toHaveProperty('name');
    expect(JSON.stringify(body)).not.toMatch(/"xml"|"example"|\$ref/);

    const getPetById = tools.find((tool) => tool.name === 'getPetById')!;
    expect(getPetById.inputSchema).toEqual({
      type: 'object',
      properties: { petId: { type: 'integer', format: 'int64', description: 'ID of pet to return' } },
      required: ['petId'],
    });
    expect(getPetById.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(tools.find((tool) => tool.name === 'deletePet')!.annotations).toMatchObject({ destructiveHint: true });
  });

  it('reads the multi-file variant (external $refs to other files) into the same tools', async () => {
    const single = await fromOpenAPI(PETSTORE_SPEC, { serverUrl: suite.rest.origin });
    const split = await fromOpenAPI(PETSTORE_SPLIT_SPEC, { baseUrl: suite.rest.origin });
    expect(split.tools.map((tool) => tool.compiled().listed)).toEqual(
      single.tools.map((tool) => tool.compiled().listed),
    );
  });

  it('calls the REST server with the right path, query, body and headers', async () => {
    const client = await connect(PETSTORE_SPLIT_SPEC, {
      serverUrl: undefined,
      baseUrl: suite.rest.origin,
      credentials: { petstore_auth: 'token-1' },
      headers: ({ operation }) => ({ 'x-operation': operation.operationId ?? '' }),
    });

    const got = await client.callTool({ name: 'getPetById', arguments: { petId: 7 } });
    expect(got.isError).toBeFalsy();
    expect(got.structuredContent).toMatchObject({ id: 7, name: 'doggie' });
    expect(suite.rest.last()).toMatchObject({ method: 'GET', path: '/v2/pet/7', query: '' });
    expect(suite.rest.last().headers.accept).toMatch(/application\/json/);
    expect(suite.rest.last().headers['x-operation']).toBe('getPetById');

    const found = await client.callTool({ name: 'findPetsByTags', arguments: { tags: ['a', 'b c'] } });
    expect(suite.rest.last()).toMatchObject({
      method: 'GET',
      path: '/v2/pet/findByTags',
      query: 'tags=a&tags=b+c',
    });
    expect(JSON.parse(text(found))).toHaveLength(2);
    expect(found.structuredContent).toBeUndefined(); // an array is not an object: text only
    expect(suite.rest.last().headers.authorization).toBe('Bearer token-1');

    const pet = { name: 'Rex', photoUrls: ['http://x/rex.png'], category: { id: 1, name: 'Dogs' }, status: 'sold' };
    const added = await client.callTool({ name: 'addPet', arguments: { body: pet } });
    expect(added.structuredContent).toEqual(pet);
    expect(suite.rest.last()).toMatchObject({ method: 'POST', path: '/v2/pet' });
    expect(suite.rest.last().headers['content-type']).toBe('application/json');
    expect(JSON.parse(suite.rest.last().body.toString('utf8'))).toEqual(pet);

    const deleted = await client.callTool({ name: 'deletePet', arguments: { petId: 3, api_key: 'k-3' } });
    expect(text(deleted)).toMatch(/^DELETE http:\/\/127\.0\.0\.1:\d+\/v2\/pet\/3: HTTP 200 \(no content\)\.$/);
    expect(suite.rest.last()).toMatchObject({ method: 'DELETE', path: '/v2/pet/3' });
    expect(suite.rest.last().headers.api_key).toBe('k-3');

    const bytes = Buffer.from('not really a png');
    const uploaded = await client.callTool({
      name: 'uploadFile',
      arguments: { petId: 5, body: { additionalMetadata: 'front view', file: bytes.toString('base64') } },
    });
    expect(uploaded.structuredContent).toMatchObject({ message: `${suite.rest.last().body.byteLength} bytes` });
    expect(suite.rest.last()).toMatchObject({ method: 'POST', path: '/v2/pet/5/uploadImage', query: '' });
    expect(suite.rest.last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(suite.rest.last().body.toString('latin1')).toMatch(/name="additionalMetadata"\r\n\r\nfront view\r\n/);
    expect(suite.rest.last().body.includes(bytes)).toBe(true);

    const login = await client.callTool({ name: 'loginUser', arguments: { username: 'ada', password: 'p&w' } });
    expect(text(login)).toBe('logged in user session:1');
    expect(suite.rest.last().query).toBe('username=ada&password=p%26w');
  });

  it('serves the same calls to a 2026-07-28 client', async () => {
    const client = await connect(PETSTORE_SPEC, {}, 'modern');
    const got = await client.callTool({ name: 'getPetById', arguments: { petId: 9 } });
    expect(got.structuredContent).toMatchObject({ id: 9 });
    expect(suite.rest.last().path).toBe('/v2/pet/9');
  });

  it('loads the spec from its URL and resolves the relative server URL against it', async () => {
    const client = await suite.serve(await fromOpenAPI(`${suite.rest.origin}/v2/openapi.json`));
    const got = await client.callTool({ name: 'getPetById', arguments: { petId: 2 } });
    expect(got.structuredContent).toMatchObject({ id: 2 });
    expect(suite.rest.last().path).toBe('/v2/pet/2');
  });

  it('sends credentials where the security scheme says, and says which ones an operation wants', async () => {
    const anonymous = await connect(PETSTORE_SPEC);
    const refused = await anonymous.callTool({ name: 'getInventory', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v2\/store\/inventory failed with HTTP 401 Unauthorized: Missing api key\. The API wants credentials \(this operation accepts: api_key\): configure them with fromOpenAPI's credentials or headers option\.$/,
    );
    await suite.stopServer();

    const keyed = await connect(PETSTORE_SPEC, { credentials: { api_key: 'secret' } });
    const inventory = await keyed.callTool({ name: 'getInventory', arguments: {} });
    expect(inventory.structuredContent).toEqual({ available: 3, sold: 1 });
    expect(suite.rest.last().headers.api_key).toBe('secret');
  });

  it('turns HTTP errors and unreachable servers into tool errors a person can act on', async () => {
    const client = await connect(PETSTORE_SPEC);
    const missing = await client.callTool({ name: 'getPetById', arguments: { petId: 404 } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(
      /\/v2\/pet\/404 failed with HTTP 404 Not Found: Pet not found\. Nothing there: check petId\.$/,
    );

    const down = await client.callTool({ name: 'getOrderById', arguments: { orderId: 5 } });
    expect(text(down)).toMatch(
      /failed with HTTP 503 Service Unavailable: Down for maintenance\. Retry after 7 seconds\.$/,
    );

    const before = suite.rest.requests.length;
    const invalid = await client.callTool({ name: 'getPetById', arguments: { petId: 'seven' } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/^Invalid arguments for tool "getPetById": petId: /);
    expect(suite.rest.requests).toHaveLength(before); // refused before any HTTP call
    await suite.stopServer();

    const closed = await startPetstoreServer();
    await closed.close(); // a port nobody listens on any more
    const nowhere = await connect(PETSTORE_SPEC, { serverUrl: `${closed.origin}/v2` });
    const unreachable = await nowhere.callTool({ name: 'getPetById', arguments: { petId: 1 } });
    expect(unreachable.isError).toBe(true);
    expect(text(unreachable)).toMatch(/^Could not reach GET http:\/\/127\.0\.0\.1:\d+\/v2\/pet\/1: ECONNREFUSED\./);
  });
});

describe('fromOpenAPI options', () => {
  const names = async (options: FromOpenApiOptions) =>
    (await fromOpenAPI(PETSTORE_SPEC, options)).tools.map((tool) => tool.name);

  it('refuses misspelled options, filter keys, methods and credentials instead of exposing every operation', async () => {
    const typo = { inlcude: { tags: ['store'] } } as unknown as FromOpenApiOptions;
    await expect(fromOpenAPI(PETSTORE_SPEC, typo)).rejects.toThrow(InvalidOptionsError);
    await expect(fromOpenAPI(PETSTORE_SPEC, typo)).rejects.toThrow(/"inlcude" \(did you mean "include"\?\)/);
    const filterTypo = { exclude: { method: ['DELETE'] } } as unknown as FromOpenApiOptions;
    await expect(fromOpenAPI(PETSTORE_SPEC, filterTypo)).rejects.toThrow(/"method" \(did you mean "methods"\?\)/);
    await expect(fromOpenAPI(PETSTORE_SPEC, { exclude: { methods: ['DELET'] } })).rejects.toThrow(
      /exclude\.methods: "DELET" is not an HTTP method/,
    );
    await expect(fromOpenAPI(PETSTORE_SPEC, { credentials: { nope: 'x' } })).rejects.toThrow(
      /credentials\.nope: the spec has no security scheme "nope" \(its schemes are .*api_key/,
    );
    expect(await names({ exclude: { methods: ['delete'] } })).not.toContain('deletePet');
  });

  it('includes and excludes by tag, path glob, operationId and method', async () => {
    expect(await names({ include: { tags: ['store'] } })).toEqual([
      'getInventory',
      'placeOrder',
      'getOrderById',
      'deleteOrder',
    ]);
    expect(await names({ include: { paths: ['/pet/{petId}/*', '/user/login'] } })).toEqual(['uploadFile', 'loginUser']);
    expect(await names({ include: { paths: ['/pet/**'] }, exclude: { methods: ['delete', 'PUT', 'POST'] } })).toEqual([
      'findPetsByStatus',
      'findPetsByTags',
      'getPetById',
    ]);
    expect(await names({ include: { operationIds: ['loginUser'] }, exclude: { tags: ['pet'] } })).toEqual([
      'loginUser',
    ]);
    expect(await names({ exclude: { tags: ['pet', 'store', 'user'] } })).toEqual([]);
  });

  it('names tools from method and path without operationId, uniquely and within the MCP rules', async () => {
    const long = `/${'segment'.repeat(30)}`;
    const pkg = await fromOpenAPI({
      openapi: '3.1.0',
      info: { title: 'names', version: '1' },
      servers: [{ url: 'http://127.0.0.1:1' }],
      paths: {
        '/things/{thingId}': { get: { responses: {} }, delete: { responses: {} } },
        '/things/{thing_id}': { get: { responses: {} } },
        '/a b/ü': { get: { operationId: 'find things (v2)!', responses: {} } },
        [long]: { get: { responses: {} } },
      },
    });
    const all = pkg.tools.map((tool) => tool.name);
    expect(all.slice(0, 4)).toEqual([
      'get_things_thingId',
      'delete_things_thingId',
      'get_things_thing_id',
      'find_things_v2',
    ]);
    expect(all[4]).toHaveLength(128);
    for (const name of all) expect(name).toMatch(TOOL_NAME);

    const clash = await fromOpenAPI({
      openapi: '3.0.3',
      info: { title: 'clash', version: '1' },
      servers: [{ url: 'http://127.0.0.1:1' }],
      paths: {
        '/a': { get: { operationId: 'x/y', responses: {} } },
        '/b': { get: { operationId: 'x y', responses: {} } },
      },
    });
    expect(clash.tools.map((tool) => tool.name)).toEqual(['x_y', 'x_y_2']);
  });

  it('refuses a bad toolName, a relative server without a base, and documents that are not OpenAPI 3', async () => {
    await expect(fromOpenAPI(PETSTORE_SPEC, { toolName: () => 'has space' })).rejects.toThrow(
      /toolName gave "has space" for PUT \/pet: use 1-128 characters/,
    );
    await expect(fromOpenAPI(PETSTORE_SPEC, { toolName: () => 'same' })).rejects.toThrow(/already used/);
    await expect(fromOpenAPI(PETSTORE_SPLIT_SPEC)).rejects.toThrow(
      /server URL "\/v2" is relative .* pass baseUrl .* or serverUrl/,
    );
    await expect(fromOpenAPI({ swagger: '2.0', info: { title: 't', version: '1' }, paths: {} })).rejects.toThrow(
      /Swagger 2\.0; fromOpenAPI reads OpenAPI 3\.x/,
    );
    const missing = fromOpenAPI('/nonexistent/spec.yaml');
    await expect(missing).rejects.toBeInstanceOf(OpenApiError);
    await expect(missing).rejects.toThrow(/Could not load the OpenAPI spec \/nonexistent\/spec\.yaml/);
  });

  it('converts OpenAPI 3.0 nullable and bounds, cuts recursive schemas, and returns images as image blocks', async () => {
    const node: Record<string, unknown> = {
      type: 'object',
      properties: {
        label: { type: 'string', nullable: true },
        size: { type: 'number', minimum: 0, exclusiveMinimum: true },
      },
    };
    (node.properties as Record<string, unknown>).children = { type: 'array', items: node }; // a cycle, as dereferencing leaves it
    const origin = suite.rest.origin;
    const fetched: string[] = [];
    const client = await suite.serve(
      await fromOpenAPI(
        {
          openapi: '3.0.3',
          info: { title: 'tree', version: '1' },
          servers: [{ url: '/v2' }],
          paths: {
            '/tree': {
              post: {
                operationId: 'plant',
                requestBody: { content: { 'application/json': { schema: node } } },
                responses: {},
              },
            },
            '/logo': {
              get: { operationId: 'logo', responses: { '200': { description: 'png', content: { 'image/png': {} } } } },
            },
          },
        },
        {
          baseUrl: origin,
          // The `fetch` option: calls go through the app's own fetch (here one that logs, then sends).
          fetch: async (url, init) => {
            fetched.push(String(url));
            return fetch(url, init);
          },
        },
      ),
    );
    const plant = (await client.listTools()).tools.find((tool) => tool.name === 'plant')!;
    const body = plant.inputSchema.properties!.body as Schema;
    expect(body.properties.label).toEqual({ type: ['string', 'null'] });
    expect(body.properties.size).toEqual({ type: 'number', exclusiveMinimum: 0 });
    // The repeat is a $ref into $defs (the schema defined once there, referring to itself).
    expect(body.properties.children.items).toEqual({ $ref: '#/$defs/Recursive' });
    expect(plant.inputSchema.$defs).toEqual({ Recursive: body });
    const ok = await client.callTool({
      name: 'plant',
      arguments: { body: { label: null, size: 1, children: [{ size: 2, children: [{ label: 'leaf' }] }] } },
    });
    expect(text(ok)).toMatch(/HTTP 404/); // validated (null accepted) and sent; the Petstore has no /tree
    const tooSmall = await client.callTool({ name: 'plant', arguments: { body: { size: 0 } } });
    expect(text(tooSmall)).toMatch(/^Invalid arguments for tool "plant": body.size: /);
    const deepWrong = await client.callTool({
      name: 'plant',
      arguments: { body: { children: [{ children: [{ size: 'x' }] }] } },
    });
    expect(text(deepWrong)).toMatch(/^Invalid arguments for tool "plant": body.children.0.children.0.size: /);

    const logo = await client.callTool({ name: 'logo', arguments: {} });
    expect(logo.content).toEqual([{ type: 'image', mimeType: 'image/png', data: PNG.toString('base64') }]);
    expect(fetched).toEqual([`${origin}/v2/tree`, `${origin}/v2/logo`]);
  });
});
