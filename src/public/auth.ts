/**
 * `mcp-toolkit/auth`: the types and helpers of MCP authorization (docs/authorization.md) that an
 * app needs beside `HttpMcpServer({ authorization })`: the option shapes, an own token verifier,
 * the principal tools and prompts see, access rules, and building an `AuthInfo` for a principal.
 */
export type { AuthorizationOptions, IntrospectionOptions, AccessTokenVerifier } from '../auth/options.js';
export { principalOf, authInfoForPrincipal, type Principal, type PrincipalInit } from '../auth/principal.js';
export type { AccessRule } from '../registry/access-rule.js';
