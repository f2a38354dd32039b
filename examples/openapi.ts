/**
 * A REST API as MCP tools: the public Petstore 3 (docs/openapi.md).
 * Run: npm run build:examples && node .tmp/examples/examples/openapi.js
 * (needs network access to petstore3.swagger.io); talk to it over stdio with any MCP client.
 */
import { StdioMcpServer } from '../src/index.js';
import { fromOpenAPI } from '../src/openapi/index.js';

// #region petstore
// One tool per operation of the spec; calls go to servers[0].url, resolved against the spec's URL.
const petstore = await fromOpenAPI('https://petstore3.swagger.io/api/v3/openapi.json', {
  include: { tags: ['pet', 'store'] },
  exclude: { methods: ['DELETE'] },
  credentials: { api_key: process.env.PETSTORE_API_KEY ?? 'special-key' },
});
const server = new StdioMcpServer({ name: 'petstore', version: '1.0.0' });
server.registerTool(petstore); // getPetById, findPetsByStatus, addPet, getInventory, ...
// #endregion petstore

// #region options
// Everything fromOpenAPI takes, for a private API described by a local, multi-file spec.
const billingTools = () =>
  fromOpenAPI('./specs/billing/openapi.yaml', {
    baseUrl: 'https://billing.internal.example', // servers: [{ url: /v2 }] -> https://billing.internal.example/v2
    include: { paths: ['/invoices/**'], operationIds: ['getCustomer'] },
    toolName: ({ operationId, method, path }) => `billing.${operationId ?? `${method}_${path}`.replace(/\W+/g, '_')}`,
    credentials: { oauth: process.env.BILLING_TOKEN ?? '' }, // securitySchemes.oauth -> Authorization: Bearer ...
    headers: ({ context }) => ({ 'x-request-id': String(context.requestId) }), // per call, after credentials
    timeoutMs: 10_000,
    maxResponseBytes: 1024 * 1024,
  });
// #endregion options
export { billingTools }; // not called here: the billing spec is an illustration

await server.start();
await server.waitUntilClosed();
