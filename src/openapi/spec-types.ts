/**
 * The parts of a dereferenced OpenAPI 3.0 / 3.1 document that `fromOpenAPI` reads (OpenAPI
 * Specification 3.1.0, section 4.8). Kept to what is used, and loose, so the package needs no
 * OpenAPI type library at run time or in its published types.
 */

/** A JSON Schema (OpenAPI 3.1) or an OpenAPI 3.0 "Schema Object"; may contain object cycles after dereferencing. */
export type SchemaNode = Record<string, unknown>;

/** OpenAPI "Parameter Object". */
export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  description?: string;
  required?: boolean;
  deprecated?: boolean;
  style?: string;
  explode?: boolean;
  schema?: SchemaNode;
  content?: Record<string, MediaTypeObject>;
}

/** OpenAPI "Media Type Object". */
export interface MediaTypeObject {
  schema?: SchemaNode;
}

/** OpenAPI "Request Body Object". */
export interface RequestBodyObject {
  description?: string;
  required?: boolean;
  content?: Record<string, MediaTypeObject>;
}

/** OpenAPI "Response Object". */
export interface ResponseObject {
  description?: string;
  content?: Record<string, MediaTypeObject>;
}

/** OpenAPI "Security Requirement Object": scheme name -> scopes. */
export type SecurityRequirement = Record<string, string[]>;

/** OpenAPI "Operation Object". */
export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses?: Record<string, ResponseObject>;
  security?: SecurityRequirement[];
}

/** OpenAPI "Security Scheme Object". */
export interface SecuritySchemeObject {
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  name?: string;
  in?: 'query' | 'header' | 'cookie';
  scheme?: string;
}

/** OpenAPI "Server Object". */
export interface ServerObject {
  url: string;
  variables?: Record<string, { default: string }>;
}

/** OpenAPI "Path Item Object": operations by lowercase HTTP method, plus shared parameters. */
export type PathItemObject = { parameters?: ParameterObject[] } & Partial<Record<HttpMethod, OperationObject>>;

/** The HTTP methods an OpenAPI Path Item may hold an operation for. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** A dereferenced OpenAPI 3.x document. */
export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string; description?: string };
  servers?: ServerObject[];
  paths?: Record<string, PathItemObject>;
  security?: SecurityRequirement[];
  components?: { securitySchemes?: Record<string, SecuritySchemeObject> };
}
