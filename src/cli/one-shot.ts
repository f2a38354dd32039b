import type { CallToolResult } from '@modelcontextprotocol/client';
import { connectTarget, type TargetConnection } from './client/connect-target.js';
import { formatInventory, readInventory } from './client/inventory.js';
import { parseTarget } from './targets.js';
import { MAX_TIMER_MS } from '../option-values.js';
import { flagNumber } from './flag-parsers.js';

/** Options of `list` and `call`. */
export interface OneShotFlags {
  json?: boolean;
  /** `call`: the arguments as a JSON object. */
  args?: string;
  /** `call`: how long to wait for the result, in ms. */
  timeout?: string;
}

// `list` and `call` are MCP clients: their result goes to stdout so it can be piped (`--json`).
const write = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const notice = (line: string) => process.stderr.write(`mcp-toolkit: ${line}\n`);

async function withTarget<T>(text: string, version: string, run: (c: TargetConnection) => Promise<T>): Promise<T> {
  const connection = await connectTarget(parseTarget(text), { version, notice });
  try {
    return await run(connection);
  } finally {
    await connection.close();
  }
}

/**
 * `mcp-toolkit list <target>`: prints the target's tools, resources, resource templates and prompts
 * (with `--json`, the lists as one JSON object).
 */
export async function listTarget(target: string, flags: OneShotFlags, version: string): Promise<void> {
  const inventory = await withTarget(target, version, ({ client }) => readInventory(client));
  write(flags.json ? JSON.stringify(inventory, null, 2) : formatInventory(inventory).join('\n'));
}

/**
 * Parses `--args`: a JSON object.
 * @throws Error naming the flag when it is not JSON or not an object.
 */
export function parseToolArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`--args must be a JSON object, e.g. '{"name":"Ada"}': ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`--args must be a JSON object, e.g. '{"name":"Ada"}', got ${text}`);
  }
  return value as Record<string, unknown>;
}

/** One content block as terminal text: text as it is, anything else as a one-line summary. */
function blockText(block: CallToolResult['content'][number]): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case 'resource_link':
      return `[resource link ${block.uri}]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}, binary]`;
    default:
      return JSON.stringify(block);
  }
}

/**
 * `mcp-toolkit call <target> <tool> [--args json]`: calls one tool and prints its result (text blocks
 * as they are, `structuredContent` as JSON when there is no text; `--json` prints the whole result).
 * @returns the exit code: 1 when the result is a tool error (`isError`), else 0.
 */
export async function callTarget(target: string, tool: string, flags: OneShotFlags, version: string): Promise<number> {
  const args = parseToolArgs(flags.args);
  const timeout = flags.timeout === undefined ? undefined : flagNumber(flags.timeout);
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout > 0 && timeout <= MAX_TIMER_MS)) {
    throw new Error(`--timeout must be a positive number of milliseconds <= ${MAX_TIMER_MS}, got "${flags.timeout}"`);
  }
  const result = (await withTarget(target, version, ({ client }) =>
    client.callTool({ name: tool, arguments: args }, timeout === undefined ? undefined : { timeout }),
  )) as CallToolResult;
  if (flags.json) {
    write(JSON.stringify(result, null, 2));
  } else {
    const texts = result.content.map(blockText);
    if (texts.length === 0 && result.structuredContent !== undefined) {
      texts.push(JSON.stringify(result.structuredContent, null, 2));
    }
    write(texts.join('\n'));
  }
  return result.isError ? 1 : 0;
}
