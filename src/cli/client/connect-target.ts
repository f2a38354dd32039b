import { importOptional } from '../../lazy-module.js';
import type { Client, ClientOptions } from '@modelcontextprotocol/client';
import { describeTarget, type Target } from '../targets.js';

/** How long a spawned server may take to exit once its stdin closed before it is signalled (ms; the SDK's value). */
export const EXIT_GRACE_MS = 2_000;

/** A connected CLI client and how to end it. */
export interface TargetConnection {
  /** The official SDK v2 client, connected. */
  readonly client: Client;
  /** The spawned server's process id (server files and stdio commands). */
  readonly pid?: number;
  /**
   * Closes the client; a spawned server gets its stdin closed, then SIGTERM after
   * {@link EXIT_GRACE_MS} and SIGKILL after as long again (the SDK's stdio shutdown), and
   * `notice` is told when it had to be signalled. Idempotent.
   */
  close(): Promise<void>;
}

/** Options of {@link connectTarget}. */
export interface ConnectTargetOptions {
  /** Sent as `clientInfo.version`. */
  version: string;
  /** Each chunk the spawned server writes to stderr (default: copied to this process's stderr). */
  onServerStderr?: (text: string) => void;
  /** One-line messages about the server process (it had to be killed, ...). */
  notice: (line: string) => void;
  /** More SDK client options (e.g. `listChanged` handlers). */
  clientOptions?: ClientOptions;
  /** The server process's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

/** The connection error, saying which target it was about (`cause` keeps the SDK's error). */
function cannotConnect(target: Target, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`could not connect to ${describeTarget(target)}: ${reason}`, { cause: error });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Connects the official MCP client (`@modelcontextprotocol/client`, an optional peer dependency
 * loaded here on first use, so that `serve` never needs it) to a target: spawns a server file or stdio command and speaks over its
 * stdio (the legacy `initialize` handshake, which every server speaks and which needs no probe
 * process), or connects to an HTTP endpoint (probing for 2026-07-28 first, falling back to the
 * handshake). The spawned server inherits this process's environment and working directory.
 * @throws MissingDependencyError when `@modelcontextprotocol/client` is not installed.
 * @throws Error naming the target and the reason when the connection fails (the server exited or
 *   refused, the command does not exist, the URL does not answer); `cause` is the SDK's error.
 */
export async function connectTarget(target: Target, options: ConnectTargetOptions): Promise<TargetConnection> {
  const { Client, StreamableHTTPClientTransport } = await importOptional<typeof import('@modelcontextprotocol/client')>(
    '@modelcontextprotocol/client',
    "each of the CLI's dev, list and call commands",
  );
  const client = new Client(
    { name: 'mcp-toolkit-cli', version: options.version },
    { ...options.clientOptions, versionNegotiation: { mode: target.kind === 'http' ? 'auto' : 'legacy' } },
  );
  if (target.kind === 'http') {
    await client.connect(new StreamableHTTPClientTransport(target.url)).catch((error: unknown) => {
      throw cannotConnect(target, error);
    });
    let closing: Promise<void> | undefined;
    return { client, close: () => (closing ??= client.close().catch(() => {})) };
  }
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const transport = new StdioClientTransport({
    command: target.command,
    args: target.args,
    env: Object.fromEntries(
      Object.entries(options.env ?? process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    stderr: 'pipe',
  });
  const forward = options.onServerStderr ?? ((text: string) => process.stderr.write(text));
  transport.stderr?.on('data', (chunk: Buffer) => forward(chunk.toString()));
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => {});
    throw cannotConnect(target, error);
  }
  const pid = transport.pid ?? undefined;
  let closing: Promise<void> | undefined;
  const close = async () => {
    const timer = setTimeout(() => {
      if (pid !== undefined && isAlive(pid)) {
        options.notice(
          `the server (pid ${pid}) is still running ${EXIT_GRACE_MS / 1000} s after its stdin closed ` +
            '(a tool that ignores its abort signal?): sending SIGTERM, then SIGKILL',
        );
      }
    }, EXIT_GRACE_MS - 100); // just before the SDK signals it
    await client.close().catch(() => {});
    clearTimeout(timer);
  };
  return { client, pid, close: () => (closing ??= close()) };
}
