import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without types
import { elementFiles, readFolderDirections } from '../../scripts/folder-directions.mjs';

interface Row {
  element: string;
  allowed: Array<{ element: string; cycle: boolean }>;
}
const root = fileURLToPath(new URL('../../', import.meta.url));
const rows = readFolderDirections() as Row[];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(`${dir}/${entry.name}`)
      : entry.name.endsWith('.ts')
        ? [`${dir}/${entry.name}`]
        : [],
  );
}

function elementsOf(file: string): string[] {
  return rows
    .filter((row) => {
      const { files, ignores = [] } = elementFiles(row.element) as { files: string[]; ignores?: string[] };
      return picomatch(files)(file) && !picomatch(ignores.length ? ignores : ['\0'])(file);
    })
    .map((row) => row.element);
}

describe('folder directions (docs/architecture.md) and the lint rule built from them', () => {
  it('puts every file of src/ in exactly one row of the table', () => {
    for (const file of sourceFiles('src')) expect(elementsOf(file), file).toHaveLength(1);
  });

  it('has no cycle besides the edges marked † (each named in its note)', () => {
    const edges = new Map(rows.map((row) => [row.element, row.allowed.filter((a) => !a.cycle).map((a) => a.element)]));
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (node: string, trail: string[]): void => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'visiting') throw new Error(`cycle: ${[...trail, node].join(' -> ')}`);
      state.set(node, 'visiting');
      for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
      state.set(node, 'done');
    };
    for (const row of rows) visit(row.element, []);
    // Each marked edge is one that really closes a cycle: its target reaches back to its source.
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      from === to || (!seen.has(from) && (seen.add(from), (edges.get(from) ?? []).some((n) => reaches(n, to, seen))));
    for (const row of rows) {
      for (const marked of row.allowed.filter((a) => a.cycle)) {
        expect(reaches(marked.element, row.element), `${row.element} -> ${marked.element}`).toBe(true);
      }
    }
  });

  it('lint config zones are the table: each file may import exactly what its row allows', async () => {
    const eslint = new ESLint({ cwd: root });
    const config = await eslint.calculateConfigForFile(path.join(root, 'src/registry/tool.ts'));
    const [, { zones }] = config.rules['import-x/no-restricted-paths'] as [
      unknown,
      { zones: Array<{ message: string }> },
    ];
    const registry = rows.find((row) => row.element === 'registry/')!;
    const forbidden = rows
      .map((row) => row.element)
      .filter((element) => element !== 'registry/' && !registry.allowed.some((a) => a.element === element));
    expect(zones.map((zone) => zone.message.split(' may not import ')[1]!.split(':')[0])).toEqual(forbidden);
  });

  it('npm run lint fails on a new import against the directions and passes an allowed one', async () => {
    const eslint = new ESLint({ cwd: root });
    const lint = async (filePath: string, code: string) =>
      (await eslint.lintText(code, { filePath: path.join(root, filePath) }))[0]!.messages.filter(
        (m) => m.ruleId === 'import-x/no-restricted-paths',
      );
    // The registry knows no servers; nothing below mcp/ imports admin/ or cluster/; the top-level files import nothing.
    const upward = await lint(
      'src/registry/new-file.ts',
      "export type { BaseMcpServer } from '../mcp/mcp-server.js';\n",
    );
    expect(upward.map((m) => m.message)).toEqual([expect.stringContaining('registry/ may not import mcp/*.ts')]);
    const admin = await lint(
      'src/mcp/view/new-file.ts',
      "export { adminRouter } from '../../admin/admin-router.js';\n",
    );
    expect(admin.map((m) => m.message)).toEqual([expect.stringContaining('mcp/view/ may not import admin/')]);
    const cluster = await lint(
      'src/state/new-file.ts',
      "export { createCluster } from '../cluster/create-cluster.js';\n",
    );
    expect(cluster).toHaveLength(1);
    const top = await lint('src/new-file.ts', "export type { Tool } from './registry/tool.js';\n");
    expect(top).toHaveLength(1);
    // A new cycle inside mcp/: wire/ is the bottom of the folder.
    const wire = await lint('src/mcp/wire/new-file.ts', "export { createView } from '../view/view.js';\n");
    expect(wire).toHaveLength(1);
    expect(await lint('src/registry/new-file.ts', "export { ToolkitError } from '../errors.js';\n")).toEqual([]);
    expect(
      await lint('src/mcp/view/new-file.ts', "export { isPlainObject } from '../wire/plain-object.js';\n"),
    ).toEqual([]);
  });
});
