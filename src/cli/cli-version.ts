import { nodeFs } from '../lazy-module.js';

/** The package's version (from its package.json), given to clients as the server's version and printed by `--version`. */
export const CLI_VERSION = (
  JSON.parse(nodeFs().readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
