import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ListChangedHandlers } from '@modelcontextprotocol/client';
import { connectTarget, type TargetConnection } from '../client/connect-target.js';
import { readInventory } from '../client/inventory.js';
import { isTypeScriptFile, serverFileCommand } from '../targets.js';
import { devConnectHelp } from './dev-help.js';
import { prefixLines, startHttpServerFile } from './http-child.js';
import { LiveView } from './live-view.js';
import { watchSources } from './watch-sources.js';

/** Options of `mcp-toolkit dev`. */
export interface DevFlags {
  /** The file serves Streamable HTTP at this URL: connect there instead of over its stdio. */
  url?: string;
  /** More files or folders whose changes restart the server. */
  watch?: string[];
}

// `dev` is an MCP client: the server it runs has its own pipes, and this stdout is the person's view.
const out = (line: string) => process.stdout.write(`${line}\n`);

/** A path relative to the working directory when it is inside it, else absolute. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/**
 * `mcp-toolkit dev <server.ts|js>`: runs the app's own server file (TypeScript through tsx), keeps
 * one official client connected and its view in the terminal (tools, resources, prompts, then a
 * line per list change), prints how to connect other clients, and restarts the server when the
 * file or anything beside it changes (chokidar). Runs until SIGINT / SIGTERM.
 * @throws Error when the file does not exist or is not a .ts / .js file.
 */
export async function runDev(file: string, flags: DevFlags, version: string): Promise<void> {
  const absolute = path.resolve(file);
  if (!existsSync(absolute)) throw new Error(`${file}: no such file`);
  if (!/\.(c|m)?(t|j)sx?$/i.test(absolute)) throw new Error(`${file} is neither a .ts nor a .js file`);
  const run = serverFileCommand(absolute);
  const url = flags.url === undefined ? undefined : new URL(flags.url);
  const view = new LiveView(out);
  const notice = (line: string) => out(`! ${line}`);
  const onServerStderr = prefixLines('[server] ', (text) => process.stderr.write(text));
  const listChanged: ListChangedHandlers = Object.fromEntries(
    (['tools', 'resources', 'prompts'] as const).map((kind) => [
      kind,
      {
        debounceMs: 50,
        onChanged: (error: Error | null, items: Array<{ name: string; uri?: string }> | null) => {
          if (error) notice(`could not refresh ${kind}: ${error.message}`);
          else if (items) view.changed(kind, items);
        },
      },
    ]),
  );
  let connection: TargetConnection | undefined;
  let helped = false;
  let generation = 0;
  // Ctrl+C reaches the server too (same process group): from here on its exit is expected.
  const ended = new Promise<void>((resolve) => {
    const end = () => ((generation += 1), resolve());
    process.once('SIGINT', end).once('SIGTERM', end);
  });

  const start = async () => {
    const mine = ++generation;
    out(`▶ starting ${shown(absolute)}${isTypeScriptFile(absolute) ? ' (tsx)' : ''}`);
    try {
      const options = { version, notice, onServerStderr, clientOptions: { listChanged } };
      connection = url
        ? await startHttpServerFile(run, url, options)
        : await connectTarget({ kind: 'file', file: absolute, ...run }, options);
      const { client } = connection;
      client.onclose = () => {
        if (mine === generation) out('✗ the server closed the connection; save a file to restart it');
      };
      const info = client.getServerVersion() ?? { name: 'server', version: '?' };
      view.show(
        {
          name: info.name,
          version: info.version,
          protocol: client.getNegotiatedProtocolVersion(),
          pid: connection.pid,
        },
        await readInventory(client),
      );
      if (!helped) {
        helped = true;
        for (const line of devConnectHelp(info.name, url ? { url } : run)) out(line);
      }
    } catch (error) {
      out(`✗ the server did not start (${(error as Error).message}; its output is above): fix it and save to retry`);
      await stop();
    }
  };
  const stop = async () => {
    const ending = connection;
    connection = undefined;
    generation += 1; // its close is expected: no "closed the connection" line
    await ending?.close();
  };

  let queue: Promise<void> = start();
  const watcher = await watchSources([absolute, ...(flags.watch ?? [])], (changed) => {
    queue = queue.then(async () => {
      out(`↻ ${shown(changed)} changed: restarting`);
      await stop();
      await start();
    });
  });
  await queue;
  out(`watching ${watcher.roots.map((root) => shown(root) || '.').join(', ')} for changes (Ctrl+C to stop)`);

  await ended;
  await watcher.close();
  await queue.catch(() => {});
  await stop();
}
