import type { Icon } from '@modelcontextprotocol/server';
import { InvalidOptionsError } from '../../errors.js';
import { assertKnownOptions, optionKeys } from '../../known-options.js';
import {
  checkOptionValues,
  invalidOptionValue,
  isObject,
  NON_EMPTY_STRING,
  STRING,
  valueRule as rule,
  type ValueRules,
} from '../../option-values.js';

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

/** Every key of {@link ServerInfo}. */
const SERVER_INFO_KEYS = optionKeys<ServerInfo>()([
  'name',
  'version',
  'title',
  'description',
  'websiteUrl',
  'icons',
  'instructions',
]);

const SERVER_INFO_RULES: ValueRules<ServerInfo> = {
  name: NON_EMPTY_STRING,
  version: STRING,
  title: STRING,
  description: STRING,
  websiteUrl: STRING,
  icons: rule(
    'an array of icons ({ src, mimeType?, sizes? })',
    (v) => Array.isArray(v) && v.every((i) => isObject(i) && typeof i.src === 'string'),
  ),
  instructions: STRING,
};

/**
 * Checks a server's first constructor argument: an object with a non-empty `name`, a `version`
 * string and only the other {@link ServerInfo} fields, each of its type. A key that is one of the
 * server's options (`optionKeys`) gets a hint to move it to the second argument, since it would
 * otherwise be dropped.
 * @param owner - the server class (`HttpMcpServer`).
 * @throws InvalidOptionsError naming the field, what it must be and the value received, or the unknown keys.
 */
export function checkServerInfo(owner: string, serverInfo: unknown, optionNames: ReadonlySet<string>): void {
  if (!isObject(serverInfo)) {
    throw invalidOptionValue(
      owner,
      'server info (first argument)',
      'an object { name, version }',
      serverInfo,
      `Example: new ${owner}({ name: 'my-server', version: '1.0.0' }, options).`,
    );
  }
  const misplaced = Object.keys(serverInfo).filter((key) => !SERVER_INFO_KEYS.has(key) && optionNames.has(key));
  if (misplaced.length > 0) {
    throw new InvalidOptionsError(
      `${owner} server info`,
      misplaced,
      `${owner} server info (first argument) has ${misplaced.map((k) => `"${k}"`).join(', ')}, which ${misplaced.length > 1 ? 'are options' : 'is an option'}: ` +
        `pass ${misplaced.length > 1 ? 'them' : 'it'} in the second argument, new ${owner}({ name, version }, { ${misplaced.join(', ')} }).`,
    );
  }
  assertKnownOptions(
    `${owner} server info field`,
    serverInfo,
    SERVER_INFO_KEYS,
    `Options go in the second argument: new ${owner}({ name, version }, options).`,
  );
  for (const field of ['name', 'version'] as const) {
    if (serverInfo[field] === undefined) {
      throw invalidOptionValue(`${owner} server info`, field, SERVER_INFO_RULES[field]!.expected, undefined);
    }
  }
  checkOptionValues(`${owner} server info`, serverInfo, SERVER_INFO_RULES);
}
