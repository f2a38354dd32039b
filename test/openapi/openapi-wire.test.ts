// How fromOpenAPI puts arguments on the wire beyond the Petstore's simple cases (OpenAPI 3.1
// "Style Values", request body media types, security schemes), and its limits (timeout,
// response size, $refs into private hosts), checked on what the REST server on 127.0.0.1 received.
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { fromOpenAPI, type FromOpenApiOptions } from '../../src/openapi/index.js';
import { PETSTORE_SPEC, petstoreSuite, resultText as text } from '../support/petstore-server.js';

const suite = petstoreSuite();

const string = { type: 'string' };
const strings = { type: 'array', items: string };

/** A spec whose one operation at `path` takes `parameters` (and maybe a body), served by the test's REST server. */
function spec(operation: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    openapi: '3.1.0',
    info: { title: 'wire', version: '1' },
    servers: [{ url: `${suite.rest.origin}/wire` }],
    paths: { '/items/{id}/{tags}': { post: { operationId: 'op', responses: {}, ...operation } } },
    ...extra,
  };
}

async function connect(document: Record<string, unknown>, options: FromOpenApiOptions = {}): Promise<Client> {
  return suite.serve(await fromOpenAPI(document, options));
}

describe('fromOpenAPI on the wire', () => {
  it('serializes path, query, header and cookie parameters in their styles', async () => {
    const client = await connect(
      spec({
        parameters: [
          { name: 'id', in: 'path', required: true, style: 'matrix', schema: string },
          { name: 'tags', in: 'path', required: true, style: 'label', explode: true, schema: strings },
          { name: 'id', in: 'query', schema: string },
          { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object' } },
          { name: 'pipes', in: 'query', style: 'pipeDelimited', explode: false, schema: strings },
          { name: 'csv', in: 'query', explode: false, schema: strings },
          { name: 'X-Ids', in: 'header', schema: strings },
          { name: 'Accept', in: 'header', schema: string }, // ignored, as OpenAPI says
          { name: 'session', in: 'cookie', schema: string },
        ],
      }),
    );
    const { tools } = await client.listTools();
    // `id` is both a path and a query parameter: each gets its location as a prefix.
    expect(Object.keys(tools[0]!.inputSchema.properties!)).toEqual([
      'path_id',
      'tags',
      'query_id',
      'filter',
      'pipes',
      'csv',
      'X-Ids',
      'session',
    ]);
    expect(tools[0]!.inputSchema.required).toEqual(['path_id', 'tags']);

    await client.callTool({
      name: 'op',
      arguments: {
        path_id: 'a b',
        tags: ['x', 'y'],
        query_id: 'q',
        filter: { color: 'red', size: 2 },
        pipes: ['1', '2'],
        csv: ['3', '4'],
        'X-Ids': ['5', '6'],
        session: 's=1',
      },
    });
    const seen = suite.rest.last();
    expect(seen.method).toBe('POST');
    expect(seen.path).toBe('/wire/items/;id=a%20b/.x.y');
    expect(decodeURIComponent(seen.query)).toBe('id=q&filter[color]=red&filter[size]=2&pipes=1|2&csv=3,4');
    expect(seen.headers['x-ids']).toBe('5,6');
    expect(seen.headers.cookie).toBe('session=s%3D1');
  });

  it('sends urlencoded, multipart and text bodies, and keeps a parameter named body apart', async () => {
    const form = await connect(
      spec({
        parameters: [{ name: 'body', in: 'query', schema: string }],
        requestBody: {
          required: true,
          content: { 'application/x-www-form-urlencoded': { schema: { type: 'object' } } },
        },
      }),
    );
    await form.callTool({ name: 'op', arguments: { body: 'q', requestBody: { name: 'Rex', age: 3 } } });
    expect(suite.rest.last().query).toBe('body=q');
    expect(suite.rest.last().headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(suite.rest.last().body.toString()).toBe('name=Rex&age=3');
    await suite.stopServer();

    const upload = { type: 'object', properties: { note: string, file: { type: 'string', format: 'binary' } } };
    const multipart = await connect(spec({ requestBody: { content: { 'multipart/form-data': { schema: upload } } } }));
    const [tool] = (await multipart.listTools()).tools;
    expect((tool!.inputSchema.properties!.body as { properties: object }).properties).toEqual({
      note: string,
      file: { type: 'string', contentEncoding: 'base64', description: 'The file file, base64-encoded.' },
    });
    const bytes = Buffer.from([0, 1, 2, 255]);
    await multipart.callTool({ name: 'op', arguments: { body: { note: 'hello', file: bytes.toString('base64') } } });
    expect(suite.rest.last().headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const sent = suite.rest.last().body;
    expect(sent.toString('latin1')).toMatch(/name="note"\r\n\r\nhello\r\n/);
    expect(sent.toString('latin1')).toMatch(
      /name="file"; filename="file"\r\nContent-Type: application\/octet-stream\r\n\r\n/,
    );
    expect(sent.includes(Buffer.concat([Buffer.from('\r\n\r\n'), bytes, Buffer.from('\r\n')]))).toBe(true);
    await suite.stopServer();

    const xml = await connect(spec({ requestBody: { content: { 'application/xml': { schema: string } } } }));
    await xml.callTool({ name: 'op', arguments: { body: '<pet><name>Rex</name></pet>' } });
    expect(suite.rest.last().headers['content-type']).toBe('application/xml');
    expect(suite.rest.last().body.toString()).toBe('<pet><name>Rex</name></pet>');
  });

  it('applies http basic, bearer and apiKey-in-query/cookie schemes, first satisfiable requirement wins', async () => {
    const schemes = {
      components: {
        securitySchemes: {
          basic: { type: 'http', scheme: 'basic' },
          bearer: { type: 'http', scheme: 'bearer' },
          queryKey: { type: 'apiKey', in: 'query', name: 'key' },
          cookieKey: { type: 'apiKey', in: 'cookie', name: 'sid' },
        },
      },
    };
    const document = spec({ security: [{ basic: [] }, { queryKey: [], cookieKey: [] }, { bearer: [] }] }, schemes);

    const basic = await connect(document, { credentials: { basic: { username: 'ada', password: 'l0vel4ce' } } });
    await basic.callTool({ name: 'op', arguments: {} });
    expect(suite.rest.last().headers.authorization).toBe(`Basic ${Buffer.from('ada:l0vel4ce').toString('base64')}`);
    await suite.stopServer();

    const keys = await connect(document, { credentials: { queryKey: 'k1', cookieKey: 'c1', bearer: 'unused' } });
    await keys.callTool({ name: 'op', arguments: {} });
    expect(suite.rest.last().query).toBe('key=k1');
    expect(suite.rest.last().headers.cookie).toBe('sid=c1');
    expect(suite.rest.last().headers.authorization).toBeUndefined();
    await suite.stopServer();

    // Only one scheme of the second requirement is configured: it is skipped for the bearer one.
    const bearer = await connect(document, { credentials: { queryKey: 'k1', bearer: 'tok' } });
    await bearer.callTool({ name: 'op', arguments: {} });
    expect(suite.rest.last().headers.authorization).toBe('Bearer tok');
    expect(suite.rest.last().query).toBe('');
  });

  it('bounds each call by timeoutMs and each response by maxResponseBytes', async () => {
    const slow = await connect(
      {
        openapi: '3.1.0',
        info: { title: 'slow', version: '1' },
        servers: [{ url: suite.rest.origin }],
        paths: { '/slow': { get: { operationId: 'slow', responses: {} } } },
      },
      { timeoutMs: 200 },
    );
    const started = Date.now();
    const late = await slow.callTool({ name: 'slow', arguments: {} });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(late.isError).toBe(true);
    expect(text(late)).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/slow did not answer within 200 ms; retry later\.$/);
    await suite.stopServer();

    const client = await suite.serve(
      await fromOpenAPI(PETSTORE_SPEC, { serverUrl: `${suite.rest.origin}/v2`, maxResponseBytes: 64 }),
    );
    const big = await client.callTool({ name: 'findPetsByStatus', arguments: { status: ['available'] } });
    expect(big.isError).toBe(true);
    expect(text(big)).toMatch(/answered with more than 64 bytes \(maxResponseBytes\)/);
  });

  it('refuses $refs into loopback or private hosts other than the spec URL itself', async () => {
    const document = spec({
      requestBody: {
        content: {
          'application/json': { schema: { $ref: `${suite.rest.origin}/v2/openapi.json#/components/schemas/Pet` } },
        },
      },
    });
    await expect(fromOpenAPI(document)).rejects.toThrow(/Could not load the OpenAPI spec the given document: .*\$ref/);
  });
});
