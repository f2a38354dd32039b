// bench/import-cost.mjs: what loading zod and the SDK's server (root and stdio) costs a cold process, nothing
// more. It answers the first stdin line with a canned line, so spawn -> answer is the import alone. The SDK files
// are named by path: a bare specifier here would resolve to the copy in bench/node_modules, not the toolkit's.
import '../../../node_modules/zod/index.js';
import '../../../node_modules/@modelcontextprotocol/server/dist/index.mjs';
import '../../../node_modules/@modelcontextprotocol/server/dist/stdio.mjs';

process.stdin.once('data', () => process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\n'));
