// The SDK behind one door (issue 23): outside src/mcp/sdk-internals/, no source file reads a
// private SDK member (a `_name` member, or one of the SDK's unexported methods such as
// `writeSSEEvent`) or subclasses a class imported from an @modelcontextprotocol package.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const DOOR = 'src/mcp/sdk-internals/';
/**
 * Members named `_x` that are not SDK internals: the MCP `_meta` field, Node's own `_httpMessage`,
 * MiniSearch's protected term tree `_index` (src/documents/compact-minisearch.ts, pinned by its own test).
 */
const NOT_SDK = new Set(['_meta', '_httpMessage', '_index']);
/** SDK members without an underscore that are private all the same. */
const PRIVATE_SDK_NAMES = new Set(['writeSSEEvent', 'upgradeToSse', '_wrapHandler']);

const isPrivateName = (name: string) => PRIVATE_SDK_NAMES.has(name) || (name.startsWith('_') && !NOT_SDK.has(name));

/** Every violation in one file's text: `file:line what`. */
export function sdkDoorViolations(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const sdkNames = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!statement.moduleSpecifier.text.startsWith('@modelcontextprotocol/')) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) sdkNames.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements) sdkNames.add(element.name.text);
    if (statement.importClause?.name) sdkNames.add(statement.importClause.name.text);
  }
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && isPrivateName(node.name.text)) at(node, `reads .${node.name.text}`);
    if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
      if (isPrivateName(node.argumentExpression.text)) at(node, `reads ['${node.argumentExpression.text}']`);
    }
    if (ts.isBindingElement(node)) {
      const name = node.propertyName ?? node.name;
      if (ts.isIdentifier(name) && isPrivateName(name.text)) at(node, `destructures ${name.text}`);
    }
    if ((ts.isMethodDeclaration(node) || ts.isPropertyDeclaration(node)) && ts.isIdentifier(node.name)) {
      if (isPrivateName(node.name.text) && ts.isClassLike(node.parent)) at(node, `overrides ${node.name.text}`);
    }
    if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ExtendsKeyword && ts.isClassLike(node.parent)) {
      for (const type of node.types) {
        const base = type.expression;
        const root = ts.isPropertyAccessExpression(base) ? base.expression : base;
        if (ts.isIdentifier(root) && sdkNames.has(root.text)) at(node, `subclasses SDK ${base.getText(source)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the SDK behind one door', () => {
  it('has no file outside src/mcp/sdk-internals/ that reads SDK private members or subclasses an SDK class', () => {
    const files = sourceFiles(join(ROOT, 'src')).map((path) => relative(ROOT, path).replaceAll('\\', '/'));
    const outside = files.filter((file) => !file.startsWith(DOOR));
    const violations = outside.flatMap((file) => sdkDoorViolations(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(violations).toEqual([]);
    // The door itself does use them (so the check would see them there).
    const inside = files.filter((file) => file.startsWith(DOOR));
    expect(inside.flatMap((file) => sdkDoorViolations(file, readFileSync(join(ROOT, file), 'utf8')))).not.toEqual([]);
  });

  it('catches each kind of violation (fixture)', () => {
    const fixture = [
      "import { Server } from '@modelcontextprotocol/server';",
      "import * as sdk from '@modelcontextprotocol/server';",
      'class A extends Server {}',
      'class B extends sdk.Protocol {}',
      'class C { protected _wrapHandler() {} }',
      'const x = (server as any)._onrequest;',
      "const y = transport['_streamMapping'];",
      'const { _closed } = transport;',
      'transport.writeSSEEvent = () => true;',
      'const ok = message.params._meta;',
      'class D extends Map {}',
    ].join('\n');
    expect(sdkDoorViolations('fixture.ts', fixture)).toEqual([
      'fixture.ts:3 subclasses SDK Server',
      'fixture.ts:4 subclasses SDK sdk.Protocol',
      'fixture.ts:5 overrides _wrapHandler',
      'fixture.ts:6 reads ._onrequest',
      "fixture.ts:7 reads ['_streamMapping']",
      'fixture.ts:8 destructures _closed',
      'fixture.ts:9 reads .writeSSEEvent',
    ]);
  });
});
