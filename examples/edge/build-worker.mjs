// Bundles worker.ts for workerd as wrangler would: one ES module, npm packages resolved with the
// `workerd` / `worker` / `browser` export conditions, no Node built-ins allowed (the build fails on one).
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const here = fileURLToPath(new URL('.', import.meta.url));
const out = process.argv[2] ?? `${here}.build/worker.js`;
await build({
  input: `${here}/worker.ts`,
  platform: 'browser',
  logLevel: 'warn',
  resolve: { conditionNames: ['workerd', 'worker', 'browser', 'import', 'default'] },
  plugins: [
    {
      name: 'no-node-builtins',
      resolveId(id, importer) {
        if (id.startsWith('node:'))
          throw new Error(`${importer} imports ${id}: workerd without nodejs_compat has none`);
        return null;
      },
    },
  ],
  output: { file: out, format: 'esm', codeSplitting: false },
});
console.log(out);
