/**
 * mcp-toolkit/openapi: an OpenAPI 3.x document as a package of MCP tools. A separate entry
 * point, so apps that do not use it never load its code, and its parser
 * (`@apidevtools/swagger-parser`, an optional peer dependency) loads on the first `fromOpenAPI`.
 */
export { fromOpenAPI, type FromOpenApiOptions } from './from-openapi.js';
export type { OpenApiSource } from './load-spec.js';
export type { OpenApiOperationInfo, OperationFilter } from './operations.js';
export type { OpenApiCredential } from './auth.js';
export type { OpenApiHeaders } from './openapi-tool.js';
export { OpenApiError } from '../errors.js';
