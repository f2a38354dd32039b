import { describe, expect, it } from 'vitest';
import { InvalidToolError } from '../../src/errors.js';
import { fromLlmChatTool } from '../../src/registry/llm-chat-adapter.js';
import { InMemoryServer } from '../support/in-memory.js';

/** A look-alike of an llm-chat tool class: name, description, JSON Schema parameters, execute -> entries. */
class WeatherLookAlike {
  name = 'get_weather';
  description = 'Weather for a city';
  parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  async execute(args: Record<string, unknown>) {
    if (args.city === 'Atlantis') return [{ result: 'City not found', status: 'error' }];
    return [
      { result: { city: args.city, tempC: 21 }, status: 'success' },
      { result: 'Have a nice day', status: 'success' },
    ];
  }
}

describe('fromLlmChatTool', () => {
  it('serves an llm-chat style tool over MCP with its JSON Schema parameters', async () => {
    const server = new InMemoryServer();
    try {
      server.registerTool(fromLlmChatTool(new WeatherLookAlike()));
      const client = await server.connect('legacy');
      const [listed] = (await client.listTools()).tools;
      expect(listed).toMatchObject({ name: 'get_weather', description: 'Weather for a city' });
      expect(listed!.inputSchema).toMatchObject({ required: ['city'] });
      const ok = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
      expect(ok.isError).toBeFalsy();
      expect((ok.content as Array<{ text: string }>).map((c) => c.text)).toEqual([
        JSON.stringify({ city: 'Oslo', tempC: 21 }, null, 2),
        'Have a nice day',
      ]);
      const failed = await client.callTool({ name: 'get_weather', arguments: { city: 'Atlantis' } });
      expect(failed.isError).toBe(true);
      const invalid = await client.callTool({ name: 'get_weather', arguments: {} });
      expect(invalid.isError).toBe(true);
      expect(JSON.stringify(invalid.content)).toMatch(/city/);
    } finally {
      await server.stop();
    }
  });

  it('rejects objects that are not tools', () => {
    expect(() => fromLlmChatTool({ name: 'x' } as never)).toThrow(InvalidToolError);
  });
});
