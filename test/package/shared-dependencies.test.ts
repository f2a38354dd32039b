// #30 (W0): a dependency the toolkit shares with the SDK must take the SDK's range. An app's own zod (the one its
// tool schemas come from) satisfies the SDK's range, and a narrower range of ours made npm nest a second zod
// under mcp-toolkit: two copies loaded at every start. packed-install.test.ts installs the oldest such zod.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const json = (file: string) => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));

describe('dependencies shared with the MCP SDK', () => {
  it("take the SDK server package's ranges", () => {
    const ours: Record<string, string> = json('package.json').dependencies;
    const sdkPackage = json('node_modules/@modelcontextprotocol/server/package.json');
    const sdk: Record<string, string> = { ...sdkPackage.dependencies, ...sdkPackage.peerDependencies };
    const shared = Object.keys(ours).filter((name) => name in sdk);
    expect(shared).toContain('zod');
    expect(Object.fromEntries(shared.map((name) => [name, ours[name]]))).toEqual(
      Object.fromEntries(shared.map((name) => [name, sdk[name]])),
    );
  });
});
