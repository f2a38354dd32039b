import type { Icon } from '@modelcontextprotocol/server';

/**
 * Metadata sent to MCP clients (the `serverInfo` of `initialize` / `server/discover`).
 * `name` and `version` are required (seed contract); the rest are MCP `Implementation`
 * fields, plus `instructions` sent as the server's usage instructions.
 */
export interface ServerInfo {
  /** Server name, e.g. `my-app-tools`. */
  name: string;
  /** Server version, e.g. `1.2.0`. */
  version: string;
  /** Human-readable display name. */
  title?: string;
  /** Short description of the server. */
  description?: string;
  /** Home page of the server. */
  websiteUrl?: string;
  /** Icons shown by clients. */
  icons?: Icon[];
  /** How to use this server, for the model (MCP `instructions`); tool package instructions are appended. */
  instructions?: string;
}
