// Arguments of the toggle methods, defineTool's execute and upstream keys (a fresh-user trial):
// a lone string given to setDisabledTools disabled one tool per letter, a tool without execute
// registered and failed on every call with an internal message, and a misspelt upstream key was
// reported as a missing `command`.
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/errors.js';
import { StdioMcpServer } from '../../src/mcp/stdio-server.js';
import { defineTool } from '../../src/registry/tool.js';

function serverWith(...names: string[]): StdioMcpServer {
  const server = new StdioMcpServer({ name: 'args', version: '1.0.0' });
  for (const name of names) server.registerTool(defineTool({ name, execute: () => name }));
  return server;
}

const disabled = (server: StdioMcpServer) =>
  server
    .getToolStates()
    .filter((state) => !state.enabled)
    .map((state) => state.name);

describe('toggle arguments', () => {
  it('refuses a lone string for setDisabledTools instead of disabling one tool per letter', () => {
    const server = serverWith('g', 'r', 'greet');
    expect(() => server.setDisabledTools('greet' as never)).toThrow(InvalidOptionsError);
    expect(() => server.setDisabledTools('greet' as never)).toThrow(
      /setDisabledTools\(\) .*names.* an array of strings/,
    );
    expect(disabled(server)).toEqual([]);
    for (const bad of [5, undefined, null, ['greet', 1]]) {
      expect(() => server.setDisabledTools(bad as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    }
    server.setDisabledTools(['greet']);
    expect(disabled(server)).toEqual(['greet']);
  });

  it('refuses a name that is not a string in disableTool and enableTool; unknown names stay allowed', () => {
    const server = serverWith('greet');
    expect(() => server.disableTool(5 as never)).toThrow(InvalidOptionsError);
    expect(() => server.enableTool(undefined as never)).toThrow(InvalidOptionsError);
    server.disableTool('not-yet-registered');
    server.disableTool('greet');
    expect(disabled(server)).toEqual(['greet']);
    server.enableTool('greet');
    expect(disabled(server)).toEqual([]);
  });
});

describe('defineTool', () => {
  it('refuses a spec without execute, naming the tool', () => {
    expect(() => defineTool({ name: 'noexec' } as never)).toThrow(InvalidOptionsError);
    expect(() => defineTool({ name: 'noexec' } as never)).toThrow(/tool "noexec".*execute.*a function/);
  });
});

describe('addUpstream keys', () => {
  it('names a misspelt key with the nearest known one', () => {
    const server = serverWith();
    expect(() => server.addUpstream({ name: 'u', comand: 'node' } as never)).toThrow(InvalidOptionsError);
    expect(() => server.addUpstream({ name: 'u', comand: 'node' } as never)).toThrow(
      /"comand" \(did you mean "command"\?\)/,
    );
    expect(server.upstreams).toEqual([]);
  });
});
