// Unknown or misspelled options are refused where they are given, naming the option (and a
// near spelling), on every options object the app API takes.
import { describe, expect, it } from 'vitest';
import { DocumentStore } from '../../src/documents/document-store.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { StdioMcpServer } from '../../src/mcp/stdio-server.js';
import { defineTool } from '../../src/registry/tool.js';
import { refusal } from '../support/option-refusal.js';

const INFO = { name: 'options-test', version: '1.0.0' };

describe('unknown options', () => {
  it('HttpMcpServer names a foreign option and lists the known ones', () => {
    const error = refusal(() => new HttpMcpServer(INFO, { sslCert: 'cert.pem' } as never));
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.unknownKeys).toEqual(['sslCert']);
    expect(error.message).toContain('Unknown HttpMcpServer option: "sslCert"');
    expect(error.message).toMatch(/Known: .*https.*port/);
  });

  it('suggests the near spelling of a misspelled option', () => {
    expect(refusal(() => new HttpMcpServer(INFO, { prot: 0 } as never)).message).toContain('(did you mean "port"?)');
    expect(refusal(() => new StdioMcpServer(INFO, { stdinCloseGraceMS: 5 } as never)).message).toContain(
      '"stdinCloseGraceMS" (did you mean "stdinCloseGraceMs"?)',
    );
  });

  it('checks the https option object too', () => {
    const error = refusal(() => new HttpMcpServer(INFO, { https: { key: 'k', cert: 'c', certFile: 'x' } } as never));
    expect(error.message).toContain('Unknown HttpMcpServer https option: "certFile"');
  });

  it('refuses https without key and cert', () => {
    expect(() => new HttpMcpServer(INFO, { https: { key: '', cert: 'c' } })).toThrow(/https\.key must be PEM/);
  });

  it('defineTool names the tool and the option', () => {
    const error = refusal(() =>
      defineTool({ name: 'slow', timeOutMs: 5, execute: () => 'x' } as unknown as Parameters<typeof defineTool>[0]),
    );
    expect(error.message).toContain('Unknown defineTool option (tool "slow"): "timeOutMs" (did you mean "timeoutMs"?)');
  });

  it('document configs and the document store', () => {
    const store = new DocumentStore();
    expect(refusal(() => store.registerFolder({ path: '.', extension: ['md'] } as never)).message).toContain(
      '"extension" (did you mean "extensions"?)',
    );
    expect(refusal(() => store.registerDocument({ path: 'package.json', mime: 'x' } as never)).message).toContain(
      'Unknown registerDocument option: "mime"',
    );
    expect(refusal(() => new DocumentStore({ watchh: true } as never)).message).toContain('did you mean "watch"?');
  });

  it('accepts every documented option (nothing valid is refused)', () => {
    expect(
      () => new StdioMcpServer(INFO, { maxMessageBytes: 1024, pingIntervalMs: 0, pingTimeoutMs: 5 }),
    ).not.toThrow();
    expect(
      () => new HttpMcpServer(INFO, { port: 0, keepAliveMs: 0, pingIntervalMs: 1000, eventStore: undefined }),
    ).not.toThrow();
  });
});
