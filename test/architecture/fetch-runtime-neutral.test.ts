// mcp-toolkit/fetch must run on workerd without nodejs_compat: nothing on its import graph may be a Node
// built-in. Checked on what ships (dist/), our chunks and the npm packages they import alike.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const isBuiltin = (id: string) => id.startsWith('node:') || builtins.has(id) || builtins.has(id.split('/')[0]!);

/** Every specifier a built file imports: static, side-effect only (`import './x.js'`) and dynamic. */
function specifiers(code: string): string[] {
  const statics = code.matchAll(/(?:^|\n|;)\s*(?:import|export)\b[^'"`]*?["']([^"']+)["']/g);
  const dynamics = code.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g);
  return [...statics, ...dynamics].map((match) => match[1]!);
}

describe('mcp-toolkit/fetch loads no Node built-in (workerd without nodejs_compat)', () => {
  it('no file of the toolkit it loads imports one', () => {
    const seen = new Set<string>();
    const offending: string[] = [];
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('.')) walk(path.resolve(path.dirname(file), specifier));
        else if (isBuiltin(specifier)) offending.push(`${path.relative(root, file)} imports ${specifier}`);
      }
    };
    walk(path.join(root, 'dist/public/fetch.js'));
    expect(seen.size).toBeGreaterThan(2); // the entry and its chunks were read
    expect(offending).toEqual([]);
  });

  it('bundled with its npm dependencies for workerd (wrangler export conditions), nothing resolves to one', async () => {
    const offending: string[] = [];
    await build({
      cwd: root,
      input: path.join(root, 'dist/public/fetch.js'),
      platform: 'browser',
      logLevel: 'silent',
      write: false,
      resolve: { conditionNames: ['workerd', 'worker', 'browser', 'import', 'default'] },
      plugins: [
        {
          name: 'find-node-builtins',
          resolveId(id, importer) {
            if (!isBuiltin(id)) return null;
            offending.push(`${path.relative(root, importer ?? '?')} imports ${id}`);
            return { id, external: true };
          },
        },
      ],
    });
    expect(offending).toEqual([]);
  }, 60_000);
});
