import type { Command } from 'commander';
import type { DevFlags } from './dev/dev-command.js';
import type { OneShotFlags } from './one-shot.js';

const TARGET_HELP =
  'a server file (.ts runs through tsx, .js through node), a stdio command line in quotes ' +
  '("npx -y @modelcontextprotocol/server-everything") or an http(s):// URL';

/**
 * Registers the client-side commands on the CLI: `dev` (run a server file, watch it, show what a
 * client sees), `list` and `call` (one-shot use against a server file, stdio command or URL).
 * Each action loads its code when run: `serve` never compiles the client side (its SDK client, watcher).
 */
export function addClientCommands(program: Command, version: string): void {
  program
    .command('dev')
    .description(
      'Run your server file (TypeScript through tsx), restart it on change, and show what a connected client sees.',
    )
    .argument('<file>', 'the server file: server.ts, server.js, ...')
    .option('--url <url>', 'the file serves Streamable HTTP at this URL: connect there instead of over its stdio')
    .option('--watch <path...>', 'more files or folders whose changes restart the server')
    .action(async (file: string, flags: DevFlags) =>
      (await import('./dev/dev-command.js')).runDev(file, flags, version),
    );

  program
    .command('list')
    .description("List a server's tools, resources, resource templates and prompts.")
    .argument('<target>', TARGET_HELP)
    .option('--json', 'print the lists as one JSON object')
    .action(async (target: string, flags: OneShotFlags) =>
      (await import('./one-shot.js')).listTarget(target, flags, version),
    );

  program
    .command('call')
    .description('Call one tool of a server and print its result (exit code 1 when it is a tool error).')
    .argument('<target>', TARGET_HELP)
    .argument('<tool>', 'the tool name')
    .option('--args <json>', 'the arguments as a JSON object', '{}')
    .option('--timeout <ms>', 'how long to wait for the result (default 60000)')
    .option('--json', 'print the whole CallToolResult as JSON')
    .action(async (target: string, tool: string, flags: OneShotFlags) => {
      const { callTarget } = await import('./one-shot.js');
      process.exitCode = await callTarget(target, tool, flags, version);
    });
}
