import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DuplicateToolError, InvalidToolError } from '../../src/errors.js';
import { defineTool, schemasKnownGood } from '../../src/registry/tool.js';
import { ToolPackage } from '../../src/registry/tool-package.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

const tool = (name: string) => defineTool({ name, execute: () => name });

describe('ToolRegistry', () => {
  it('keeps tools in registration order and lists only enabled ones', () => {
    const registry = new ToolRegistry();
    registry.register(tool('b'));
    registry.register(new ToolPackage([tool('a'), tool('c')]));
    expect(registry.tools().map((t) => t.name)).toEqual(['b', 'a', 'c']);
    registry.disable('a');
    expect(registry.listEnabled().map((t) => t.name)).toEqual(['b', 'c']);
    expect(registry.snapshot().map(({ tool: t, enabled }) => [t.name, enabled])).toEqual([
      ['b', true],
      ['a', false],
      ['c', true],
    ]);
  });

  it('rejects a duplicate name with an error naming the tool, leaving the registry unchanged', () => {
    const registry = new ToolRegistry();
    registry.register(tool('search'));
    expect(() => registry.register(tool('search'))).toThrow(DuplicateToolError);
    expect(() => registry.register(tool('search'))).toThrow(/"search"/);
    expect(() => registry.register(new ToolPackage([tool('x'), tool('search')]))).toThrow(DuplicateToolError);
    expect(registry.get('x')).toBeUndefined();
    expect(() => registry.register(new ToolPackage([tool('y'), tool('y')]))).toThrow(/"y"/);
  });

  it('says that a name repeats inside the package, not that it is already registered', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(new ToolPackage([tool('y'), tool('y')], { name: 'pack' }))).toThrow(
      'The package "pack" contains two tools named "y"; nothing was registered',
    );
    expect(() => registry.register(new ToolPackage([tool('z'), tool('z')]))).toThrow(
      /^The package contains two tools named "z"/,
    );
    expect(registry.get('y')).toBeUndefined();
  });

  it('setDisabled replaces the whole set and [] re-enables everything', () => {
    const registry = new ToolRegistry();
    registry.register(new ToolPackage([tool('a'), tool('b'), tool('c')]));
    registry.setDisabled(['a', 'b']);
    registry.setDisabled(['c']);
    expect(registry.isEnabled('a')).toBe(true);
    expect(registry.isEnabled('c')).toBe(false);
    registry.setDisabled([]);
    expect(registry.listEnabled()).toHaveLength(3);
  });

  it('unknown names never throw, and a disabled name registered later starts disabled', () => {
    const registry = new ToolRegistry();
    expect(() => registry.disable('ghost')).not.toThrow();
    expect(() => registry.enable('nobody')).not.toThrow();
    registry.register(tool('ghost'));
    expect(registry.isEnabled('ghost')).toBe(false);
    expect(registry.disabledNames()).toEqual(['ghost']);
  });

  it('emits one change per call that changed what clients see, none otherwise', () => {
    const registry = new ToolRegistry();
    const listener = vi.fn();
    registry.onChange(listener);
    registry.register(new ToolPackage([tool('a'), tool('b')]));
    expect(listener).toHaveBeenCalledTimes(1);
    registry.setDisabled(['a', 'b']);
    expect(listener).toHaveBeenCalledTimes(2);
    registry.disable('a'); // already disabled
    registry.disable('ghost'); // not registered
    registry.enable('nobody');
    expect(listener).toHaveBeenCalledTimes(2);
    registry.enable('a');
    expect(listener).toHaveBeenLastCalledWith({ added: [], removed: [], toggled: ['a'], toolsChanged: true });
    registry.register(tool('ghost')); // starts disabled: nothing visible changed
    expect(listener).toHaveBeenLastCalledWith(expect.objectContaining({ toolsChanged: false }));
  });

  it('removes exact tool objects in one change; package names and instructions follow their tools', () => {
    const registry = new ToolRegistry();
    const listener = vi.fn();
    const [a, b, c] = [tool('a'), tool('b'), tool('c')];
    registry.register(new ToolPackage([a, b], { name: 'pair', instructions: 'Use a with b.' }));
    registry.register(c);
    expect(registry.snapshot().map((row) => [row.tool.name, row.packageName])).toEqual([
      ['a', 'pair'],
      ['b', 'pair'],
      ['c', undefined],
    ]);
    registry.onChange(listener);
    expect(registry.remove([tool('c')])).toEqual([]); // same name, another object: left alone
    expect(listener).not.toHaveBeenCalled();
    expect(registry.remove([a])).toEqual([a]);
    expect(registry.instructions()).toEqual(['Use a with b.']); // the package still has b
    expect(registry.remove([a, b])).toEqual([b]);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(listener).toHaveBeenLastCalledWith({ added: [], removed: [b], toggled: [], toolsChanged: true });
    expect(registry.instructions()).toEqual([]);
    expect(registry.tools()).toEqual([c]);
    registry.disable('c');
    registry.remove([c]); // a disabled tool leaves: nothing visible changed, the name stays disabled
    expect(listener).toHaveBeenLastCalledWith(expect.objectContaining({ removed: [c], toolsChanged: false }));
    expect(registry.disabledNames()).toEqual(['c']);
    expect(registry.size).toBe(0);
  });

  it('caches the enabled list until the next change', () => {
    const registry = new ToolRegistry();
    registry.register(tool('a'));
    const first = registry.listEnabled();
    expect(registry.listEnabled()).toBe(first);
    registry.disable('a');
    expect(registry.listEnabled()).not.toBe(first);
  });
});

describe('Tool', () => {
  it('rejects names outside the MCP naming rule', () => {
    expect(() => tool('has space')).toThrow(InvalidToolError);
    expect(() => tool('')).toThrow(InvalidToolError);
    expect(() => tool('a'.repeat(129))).toThrow(InvalidToolError);
    expect(() => tool('ok_name-1.2')).not.toThrow();
  });

  it('compiles zod and plain JSON Schema inputs to one wire form and validates with field names', async () => {
    const zodTool = defineTool({ name: 'z', inputSchema: z.object({ n: z.number() }), execute: () => '' });
    const jsonTool = defineTool({
      name: 'j',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      execute: () => '',
    });
    for (const t of [zodTool, jsonTool]) {
      const { input, listed } = t.compiled();
      expect(listed.inputSchema).toMatchObject({ type: 'object', properties: { n: { type: 'number' } } });
      expect(listed.inputSchema).not.toHaveProperty('$schema');
      expect(await input.validate({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
      const bad = await input.validate({ n: 'one' });
      expect(bad.ok).toBe(false);
      expect(JSON.stringify(bad)).toMatch(/n/);
    }
  });

  it('lists a plain JSON Schema verbatim, keeping $schema, $defs and composition keywords (SEP-1613)', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { city: { type: 'string' } } } },
      properties: { address: { $ref: '#/$defs/address' } },
      allOf: [{ anyOf: [{ required: ['address'] }] }],
      additionalProperties: false,
    };
    const listed = defineTool({ name: 'raw', inputSchema: schema, execute: () => '' }).compiled().listed;
    expect(listed.inputSchema).toEqual(schema);
  });

  it('refuses a non-object input schema at registration', () => {
    const registry = new ToolRegistry();
    const bad = defineTool({ name: 'bad', inputSchema: z.string() as never, execute: () => '' });
    expect(() => registry.register(bad)).toThrow(/must describe an object/);
  });

  // #30 (W0, CLI): the toolkit's own tools (schemasKnownGood) compile at their first listing; an app's at registration.
  it('compiles an app tool at registration, a tool marked schemasKnownGood at its first use', () => {
    const registry = new ToolRegistry();
    const app = defineTool({ name: 'app', inputSchema: z.object({ a: z.string() }), execute: () => '' });
    const builtIn = schemasKnownGood(
      defineTool({ name: 'own', inputSchema: z.object({ b: z.string() }), execute: () => '' }),
    );
    const compiles = [vi.spyOn(app, 'compiled'), vi.spyOn(builtIn, 'compiled')];
    registry.register(new ToolPackage([app, builtIn]));
    expect(compiles.map((spy) => spy.mock.calls.length)).toEqual([1, 0]);
    expect(builtIn.compiled().listed.inputSchema).toMatchObject({ properties: { b: { type: 'string' } } });
    const bad = schemasKnownGood(
      defineTool({ name: 'unchecked', inputSchema: z.string() as never, execute: () => '' }),
    );
    expect(() => registry.register(bad)).not.toThrow(); // what the mark means: only for schemas a test compiles
  });

  it('a tool with no input schema lists an empty object schema and accepts no arguments', async () => {
    const { listed, input } = tool('plain').compiled();
    expect(listed.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(await input.validate(undefined)).toEqual({ ok: true, value: {} });
  });
});

describe('argument errors name the field for both schema kinds', () => {
  it('renders AJV messages like zod ones', async () => {
    const json = defineTool({
      name: 'j2',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, nested: { type: 'object', properties: { b: { type: 'string' } } } },
        required: ['a'],
      },
      execute: () => '',
    }).compiled().input;
    expect(await json.validate({ a: 'x' })).toEqual({ ok: false, issues: ['a: must be number'] });
    expect(await json.validate({})).toEqual({ ok: false, issues: ['a: is required'] });
    expect(await json.validate({ a: 1, nested: { b: 2 } })).toEqual({
      ok: false,
      issues: ['nested.b: must be string'],
    });
    // AJV reports several errors in one message: each becomes its own `field: message`.
    expect(await json.validate({ nested: { b: 2 } })).toEqual({
      ok: false,
      issues: ['a: is required', 'nested.b: must be string'],
    });
  });
});
