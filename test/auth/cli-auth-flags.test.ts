// `mcp-toolkit serve --auth-issuer` against a real authorization server (oidc-provider): the built
// CLI as a child process refuses anonymous requests with the RFC 9728 challenge and admits a token.
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { freePort } from '../support/services.js';
import { TestAuthorizationServer } from '../support/oidc.js';
import { INITIALIZE, post } from '../e2e/http-helpers.js';

it('serve --auth-issuer --auth-scope: 401 with the challenge without a token, 200 with one', async () => {
  const as = await TestAuthorizationServer.start();
  const port = await freePort();
  const args = ['dist/cli/main.js', 'serve', 'docs', '--port', String(port), '--auth-issuer', as.issuer];
  const child = spawn('node', [...args, '--auth-scope', 'tools:read', '-q'], { stdio: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    let anonymous: Response | undefined;
    for (let i = 0; i < 50 && !anonymous; i++) {
      anonymous = await post(url, INITIALIZE).catch(() => undefined);
      if (!anonymous) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(anonymous?.status).toBe(401);
    expect(anonymous?.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp", scope="tools:read"`,
    );
    const token = await as.token(url, ['tools:read']);
    expect((await post(url, INITIALIZE, { Authorization: `Bearer ${token}` })).status).toBe(200);
  } finally {
    child.kill();
    await as.close();
  }
}, 20_000);
