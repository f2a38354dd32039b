import path from 'node:path';
import { nodeCrypto, nodeOs } from '../lazy-module.js';

/** Environment variable giving `serve --admin` its token (instead of `--admin-token` or a generated one). */
export const ADMIN_TOKEN_ENV = 'MCP_TOOLKIT_ADMIN_TOKEN';

/** The user's configuration directory: `$XDG_CONFIG_HOME` or `~/.config`; `%APPDATA%` on Windows; `~/Library/Application Support` on macOS. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return env.APPDATA ?? path.join(nodeOs().homedir(), 'AppData', 'Roaming');
  if (platform === 'darwin') return path.join(nodeOs().homedir(), 'Library', 'Application Support');
  return env.XDG_CONFIG_HOME || path.join(nodeOs().homedir(), '.config');
}

/**
 * Where `serve --admin` keeps the tool state when `--state-file` is not given: one file per served
 * folder in the user's config directory, `<config>/mcp-toolkit/tool-state/<folder name>-<hash>.json`
 * (the hash of the absolute folder path keeps two folders of the same name apart).
 */
export function defaultStateFile(folder: string, configDir = userConfigDir()): string {
  const absolute = path.resolve(folder);
  const hash = nodeCrypto().createHash('sha256').update(absolute).digest('hex').slice(0, 12);
  const name = path.basename(absolute).replace(/[^A-Za-z0-9._-]/g, '_') || 'root';
  return path.join(configDir, 'mcp-toolkit', 'tool-state', `${name}-${hash}.json`);
}

/**
 * The admin token: `--admin-token`, else `$MCP_TOOLKIT_ADMIN_TOKEN`, else 32 random bytes
 * (base64url, 43 characters) generated for this run (`generated: true`: only the banner can tell it).
 * @throws Error when a given token is shorter than 16 characters.
 */
export function adminToken(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): { token: string; generated: boolean } {
  const given = flag ?? env[ADMIN_TOKEN_ENV];
  if (given === undefined || given === '') {
    return { token: nodeCrypto().randomBytes(32).toString('base64url'), generated: true };
  }
  if (given.length < 16) throw new Error(`the admin token must have at least 16 characters (got ${given.length})`);
  return { token: given, generated: false };
}
