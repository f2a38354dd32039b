// bench/import-cost.mjs: what loading zod and the toolkit's package root (which loads the SDK) costs a cold
// process, nothing more: the same canned answer as import-sdk.mjs, so the difference is the toolkit's own code.
import '../../../node_modules/zod/index.js';
import '../../../dist/index.js';

process.stdin.once('data', () => process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\n'));
