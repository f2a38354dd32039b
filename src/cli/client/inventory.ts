import type { Client } from '@modelcontextprotocol/client';

/** What a server offers, as one client sees it. */
export interface Inventory {
  tools: Array<{ name: string; title?: string; description?: string }>;
  resources: Array<{ uri: string; name: string; mimeType?: string }>;
  resourceTemplates: Array<{ uriTemplate: string; name: string }>;
  prompts: Array<{ name: string; description?: string }>;
}

/** Lists every primitive the server declares (an undeclared capability lists as empty). */
export async function readInventory(client: Client): Promise<Inventory> {
  const capabilities = client.getServerCapabilities() ?? {};
  const [tools, resources, resourceTemplates, prompts] = await Promise.all([
    capabilities.tools ? client.listTools().then((r) => r.tools) : [],
    capabilities.resources ? client.listResources().then((r) => r.resources) : [],
    capabilities.resources ? client.listResourceTemplates().then((r) => r.resourceTemplates) : [],
    capabilities.prompts ? client.listPrompts().then((r) => r.prompts) : [],
  ]);
  return { tools, resources, resourceTemplates, prompts };
}

/** Up to the first line of a description, at most `max` characters. */
export function firstLine(text: string | undefined, max = 100): string {
  const line = (text ?? '').split('\n')[0]!.trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The inventory as indented text, one line per item (`list` and the dev view). */
export function formatInventory(inventory: Inventory): string[] {
  const section = <T>(title: string, items: T[], line: (item: T) => string) => [
    `${title} (${items.length})${items.length > 0 ? ':' : ''}`,
    ...items.map((item) => `  ${line(item)}`),
  ];
  const described = (name: string, description?: string) =>
    firstLine(description) ? `${name} - ${firstLine(description)}` : name;
  return [
    ...section('tools', inventory.tools, (tool) => described(tool.name, tool.description)),
    ...section('resources', inventory.resources, (resource) =>
      [resource.name, resource.uri, resource.mimeType].filter(Boolean).join('  '),
    ),
    ...(inventory.resourceTemplates.length > 0
      ? section('resource templates', inventory.resourceTemplates, (t) => `${t.name}  ${t.uriTemplate}`)
      : []),
    ...section('prompts', inventory.prompts, (prompt) => described(prompt.name, prompt.description)),
  ];
}
