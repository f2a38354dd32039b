import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MissingDependencyError } from '../../src/errors.js';
import { importOptional } from '../../src/lazy-module.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; import: string }>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
/** Each public entry point: subpath -> its source file (`./dist/X.js` is built from `src/X.ts`). */
const entries = Object.entries(pkg.exports)
  .filter(([, target]) => typeof target !== 'string')
  .map(([subpath, target]) => ({
    specifier: subpath === '.' ? 'mcp-toolkit' : `mcp-toolkit/${subpath.slice(2)}`,
    source: path.join(root, (target as { import: string }).import.replace('./dist/', 'src/').replace(/\.js$/, '.ts')),
  }));

const sdkTypes = path.join(root, 'node_modules/@modelcontextprotocol/server/dist/index.d.mts');
const program = ts.createProgram([...entries.map((entry) => entry.source), sdkTypes], {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  strict: true,
  skipLibCheck: true,
});
const checker = program.getTypeChecker();

interface Surface {
  specifier: string;
  values: string[];
  types: string[];
  undocumented: string[];
}
const surfaces: Surface[] = entries.map(({ specifier, source }) => {
  const module = checker.getSymbolAtLocation(program.getSourceFile(source)!)!;
  const surface: Surface = { specifier, values: [], types: [], undocumented: [] };
  for (const symbol of checker.getExportsOfModule(module)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    (target.flags & ts.SymbolFlags.Value ? surface.values : surface.types).push(symbol.name);
    if (ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '') {
      surface.undocumented.push(symbol.name);
    }
  }
  return surface;
});

/**
 * `mcp-toolkit/fetch` repeats the root's app-API values (a Worker must never load the root, whose documents
 * and transports are Node-only); these names count once, at the root, and must be the root's own objects.
 */
const rootValues = new Set(surfaces.find((s) => s.specifier === 'mcp-toolkit')!.values);
const isRepeat = (specifier: string, name: string) => specifier === 'mcp-toolkit/fetch' && rootValues.has(name);
const own = (s: Surface) => [...s.values, ...s.types].filter((name) => !isRepeat(s.specifier, name));

describe('public surface (package.json exports)', () => {
  it('root export: at most 90 names (runtime values + types), printed', () => {
    const rows = surfaces.map((s) => ({
      entry: s.specifier,
      values: s.values.length,
      types: s.types.length,
      total: s.values.length + s.types.length,
    }));
    process.stdout.write(
      `public surface:\n${rows.map((r) => `  ${r.entry}: ${r.total} (${r.values} values + ${r.types} types)`).join('\n')}\n`,
    );
    const rootSurface = rows.find((r) => r.entry === 'mcp-toolkit')!;
    expect(rootSurface.total).toBeLessThanOrEqual(90);
    expect(entries.map((e) => e.specifier)).toEqual(
      expect.arrayContaining([
        'mcp-toolkit/tasks',
        'mcp-toolkit/cluster',
        'mcp-toolkit/admin',
        'mcp-toolkit/testing',
        'mcp-toolkit/transports',
      ]),
    );
  });

  it('exports each name once across all entry points, each with a docstring', () => {
    const where = new Map<string, string[]>();
    for (const s of surfaces) for (const name of own(s)) where.set(name, [...(where.get(name) ?? []), s.specifier]);
    expect([...where].filter(([, specifiers]) => specifiers.length > 1)).toEqual([]);
    expect(surfaces.flatMap((s) => s.undocumented.map((name) => `${s.specifier}: ${name}`))).toEqual([]);
  });

  it("CHANGELOG.md's migration table names each moved name's new import, and every subpath name is in it", () => {
    const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
    const table = changelog.slice(changelog.indexOf('### Migration table'));
    const listed = new Map<string, string>();
    for (const [, names, specifier] of table.matchAll(/^\| (`.+?) \| `([^`]+)` +\|$/gm)) {
      for (const entry of names!.split(', '))
        listed.set(entry.split(' → ').at(-1)!.replaceAll('`', '').trim(), specifier!);
    }
    for (const [name, specifier] of listed) {
      const surface = surfaces.find((s) => s.specifier === specifier);
      expect([...(surface?.values ?? []), ...(surface?.types ?? [])], `${name} from ${specifier}`).toContain(name);
    }
    const moved = surfaces
      .filter((s) => s.specifier !== 'mcp-toolkit' && s.specifier !== 'mcp-toolkit/testing')
      .flatMap(own);
    expect(moved.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('reuses no name of @modelcontextprotocol/server but the four documented ones', () => {
    const sdk = new Set(
      checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(sdkTypes)!)!).map((s) => s.name),
    );
    expect(sdk.size).toBeGreaterThan(100);
    const clashes = surfaces.flatMap((s) => own(s).filter((name) => sdk.has(name))).sort();
    expect(clashes).toEqual(['Prompt', 'ResourceNotFoundError', 'TaskStatus', 'Tool']);
  });

  it('the built entry points give exactly the runtime values their types declare', async () => {
    for (const s of surfaces) {
      const loaded = (await import(s.specifier)) as Record<string, unknown>;
      expect(Object.keys(loaded).sort(), s.specifier).toEqual([...s.values].sort());
    }
  });

  it('mcp-toolkit/fetch repeats root values only as the same objects', async () => {
    const rootModule = (await import('mcp-toolkit')) as Record<string, unknown>;
    const fetchModule = (await import('mcp-toolkit/fetch')) as Record<string, unknown>;
    const repeated = Object.keys(fetchModule).filter((name) => name in rootModule);
    expect(repeated).toEqual(expect.arrayContaining(['defineTool', 'Tool', 'BaseMcpServer', 'UserError']));
    for (const name of repeated) expect(fetchModule[name], name).toBe(rootModule[name]);
  });

  it('the root export loads no optional peer: redis is an optional peer, not a dependency, and no file the root imports names it', () => {
    expect(pkg.dependencies.redis).toBeUndefined();
    expect(pkg.peerDependencies.redis).toBeDefined();
    expect(pkg.peerDependenciesMeta.redis?.optional).toBe(true);
    const seen = new Set<string>();
    const bare = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      const statics = code.matchAll(/(?:^|\n)(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']/g);
      const dynamics = code.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g);
      for (const [, specifier] of [...statics, ...dynamics]) {
        if (specifier!.startsWith('.')) walk(path.resolve(path.dirname(file), specifier!));
        else bare.add(specifier!);
      }
    };
    walk(path.join(root, 'dist/index.js'));
    expect([...bare].filter((name) => name === 'redis' || name.startsWith('@redis/'))).toEqual([]);
    expect(bare.size).toBeGreaterThan(3); // the walk did read the bundle's imports
  });

  it('a missing optional peer is a MissingDependencyError that says what to install', async () => {
    const error = await importOptional(
      'mcp-toolkit-absent-peer-for-test',
      'createCluster() (mcp-toolkit/cluster)',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingDependencyError);
    expect(error).toMatchObject({ code: 'MISSING_DEPENDENCY', packageName: 'mcp-toolkit-absent-peer-for-test' });
    expect((error as Error).message).toContain('npm install mcp-toolkit-absent-peer-for-test');
  });
});
