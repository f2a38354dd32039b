// The SDK upgrade canary: every shortcut sdk-internals/ takes into the SDK's private parts, with
// whether it still applies to the installed SDK. After an upgrade, a failure here names the
// shortcuts that fell back (the toolkit still works, on the SDK's own, slower paths).
import { describe, expect, it } from 'vitest';
import { checkSdkShortcuts } from '../../src/mcp/sdk-internals/canary.js';

describe('SDK upgrade canary', () => {
  it('reports every shortcut into SDK internals as active on the installed SDK', async () => {
    const shortcuts = await checkSdkShortcuts();
    console.warn(
      shortcuts
        .map((s) => `${s.active ? 'active  ' : 'FELL BACK'} ${s.name} (${s.relies})${s.reason ? `: ${s.reason}` : ''}`)
        .join('\n'),
    );
    expect(shortcuts.map((s) => s.name)).toEqual([
      'view-server',
      'direct-dispatch',
      'stdio-channel',
      'listen-admission',
      'cached-sse-writer',
      'quiet-call-keepalive',
      'cached-json-response',
      'transport-streams',
      'native-session-post',
      'deferred-handlers',
      'quiet-close',
      'stable-context',
      'tools-call-wrapper',
      'plain-result-copy',
      'stdio-tools-call',
      'stdio-tools-call-2026',
      'stdio-listen-intercept',
      'stdio-queue-2026',
      'steady-request-table',
      'modern-plain-entry',
      'upstream-client',
    ]);
    expect(shortcuts.filter((s) => !s.active)).toEqual([]);
  });
});
