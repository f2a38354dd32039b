/**
 * Tools, the registry and toggling: the snippets of docs/registry.md, type-checked by
 * `npm run typecheck` and quoted verbatim (checked by test/docs/examples-quoted.test.ts).
 */
import { z } from 'zod';
import { StdioMcpServer, Tool, ToolPackage, UserError, defineTool, type ToolContext } from 'mcp-toolkit';

const server = new StdioMcpServer({ name: 'registry-example', version: '1.0.0' });

// #region define
class WeatherTool extends Tool<{ city: string }> {
  constructor() {
    super({
      name: 'weather',
      description: 'Current weather for a city',
      inputSchema: z.object({ city: z.string() }),
      annotations: { readOnlyHint: true },
    });
  }
  async execute({ city }: { city: string }, context: ToolContext) {
    if (context.signal.aborted) throw new UserError('Cancelled');
    return `Sunny in ${city}`;
  }
}

// With a zod (Standard Schema) inputSchema, `execute`'s arguments are inferred: city is a string.
const forecast = defineTool({
  name: 'forecast',
  inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).max(7) }),
  outputSchema: z.object({ city: z.string(), days: z.array(z.string()) }),
  // The result is checked against outputSchema at compile time and before it is sent.
  execute: ({ city, days }) => ({ city, days: Array.from({ length: days }, () => 'sunny') }),
});

// A plain JSON Schema works too (validated with the SDK's AJV validator); give the type explicitly.
const add = defineTool<{ a: number; b: number }>({
  name: 'add',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  execute: ({ a, b }) => String(a + b),
});
// #endregion define

// #region packages
const weather = server.registerTool(
  new ToolPackage([new WeatherTool(), forecast], { name: 'weather', instructions: 'Use forecast for …' }),
);
const adder = server.registerTool(add);
// #endregion packages

// #region handles
weather.disable(); // both tools of the package, one list_changed
console.error(weather.state); // 'disabled' ('enabled', 'mixed' or 'removed' otherwise)
weather.enable();
adder.remove(); // gone from every client; the handle is inert from now on
adder.enable(); // does nothing, throws nothing
server.removeTool('forecast'); // by name (or pass the Tool or the ToolPackage)
// #endregion handles

// #region states
for (const { tool, enabled, packageName } of server.getToolStates()) {
  console.error(`${packageName ?? '(no package)'} / ${tool.name}: ${enabled ? 'on' : 'off'}`);
}
const persisted = server.tools.disabledNames(); // the disabled set, sorted, to save
server.setDisabledTools(persisted); // and to restore at the next start
// #endregion states
