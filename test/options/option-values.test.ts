// Wrong option values and misplaced server info are refused where they are given, with an
// InvalidOptionsError (code INVALID_OPTIONS) naming the option, what it must be and what it got:
// never a raw TypeError later, never a RangeError without a code, never silently dropped.
import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/errors.js';
import { DocumentStore } from '../../src/documents/document-store.js';
import { createDocumentTools } from '../../src/document-tools/document-tools.js';
import { HttpMcpServer } from '../../src/mcp/http-server.js';
import { StdioMcpServer } from '../../src/mcp/stdio-server.js';
import { FetchMcpServer, toFetchHandler } from '../../src/mcp/fetch-server.js';
import { auditLog } from '../../src/middleware/audit-log.js';
import { rateLimit } from '../../src/middleware/rate-limit.js';
import { responseCache } from '../../src/middleware/response-cache.js';
import { createCluster } from '../../src/cluster/create-cluster.js';
import { refusal } from '../support/option-refusal.js';

const INFO = { name: 'values-test', version: '1.0.0' };

describe('server info (first constructor argument)', () => {
  it('needs a name: {} is refused at construction, not with a TypeError later', () => {
    for (const make of [
      () => new HttpMcpServer({} as never),
      () => new StdioMcpServer({} as never),
      () => new FetchMcpServer({} as never),
    ]) {
      const error = refusal(make);
      expect(error.message).toMatch(/server info name must be a non-empty string, got undefined/);
      expect(error.option).toBe('name');
    }
    expect(refusal(() => new HttpMcpServer({ name: 'x' } as never)).message).toContain('version must be a string');
    expect(refusal(() => new StdioMcpServer('my-server' as never)).message).toContain(
      'StdioMcpServer server info (first argument) must be an object { name, version }, got "my-server"',
    );
  });

  it('an option put in the server info is named, with where it belongs', () => {
    const error = refusal(() => new HttpMcpServer({ ...INFO, port: 3000 } as never));
    expect(error.unknownKeys).toEqual(['port']);
    expect(error.message).toContain('has "port", which is an option: pass it in the second argument');
    expect(refusal(() => new StdioMcpServer({ ...INFO, stdinCloseGraceMs: 5 } as never)).message).toContain(
      '"stdinCloseGraceMs", which is an option',
    );
    // Not an option of this class either: unknown, with the pointer to the options argument.
    const stdio = refusal(() => new StdioMcpServer({ ...INFO, port: 3000 } as never));
    expect(stdio.message).toContain('Unknown StdioMcpServer server info field: "port"');
    expect(stdio.message).toContain('Options go in the second argument');
    expect(refusal(() => new HttpMcpServer({ ...INFO, titel: 'T' } as never)).message).toContain(
      '"titel" (did you mean "title"?)',
    );
  });

  it('fields of the wrong type are refused; every documented field is accepted', () => {
    expect(refusal(() => new StdioMcpServer({ ...INFO, instructions: 3 } as never)).message).toContain(
      'instructions must be a string, got 3',
    );
    expect(
      () =>
        new StdioMcpServer({
          ...INFO,
          title: 'T',
          description: 'D',
          websiteUrl: 'https://example.com',
          icons: [{ src: 'https://example.com/i.png' }],
          instructions: 'use it',
        }),
    ).not.toThrow();
  });
});

describe('option values of the servers', () => {
  it('names the option, the expected type and the value received', () => {
    const port = refusal(() => new HttpMcpServer(INFO, { port: '3000' } as never));
    expect(port.message).toBe('HttpMcpServer option port must be an integer >= 0 and <= 65535, got "3000".');
    expect([port.option, port.received]).toEqual(['port', '"3000"']);
    expect(refusal(() => new HttpMcpServer(INFO, { allowedHosts: 'a.example' } as never)).message).toContain(
      'allowedHosts must be an array of strings, got "a.example"',
    );
    expect(refusal(() => new HttpMcpServer(INFO, { stateless: 'yes' } as never)).message).toContain(
      'stateless must be a boolean',
    );
    expect(refusal(() => new HttpMcpServer(INFO, { https: { key: 'k' } } as never)).message).toContain(
      'https.cert must be PEM text or bytes',
    );
  });

  it('a health or readiness path another route answers is refused (it would shadow that route)', () => {
    const onMcp = refusal(() => new HttpMcpServer(INFO, { healthPath: '/mcp' }));
    expect(onMcp.message).toBe(
      'HttpMcpServer option healthPath must be a path no other route of the server answers, got "/mcp". It is the ' +
        'MCP endpoint\'s (path, by default "/mcp") route too; pick another path, or false to leave the route out.',
    );
    expect(onMcp.option).toBe('healthPath');
    // Express matches case-insensitively, with or without a trailing slash.
    expect(refusal(() => new HttpMcpServer(INFO, { path: '/rpc', readyPath: '/RPC/' })).option).toBe('readyPath');
    // The option the app set is the one named, whichever comes first.
    const onReady = refusal(() => new HttpMcpServer(INFO, { healthPath: '/ready/' }));
    expect([onReady.option, onReady.message]).toEqual([
      'healthPath',
      expect.stringContaining('the readiness route\'s (readyPath, by default "/ready") route too'),
    ]);
    const onHealth = refusal(() => new HttpMcpServer(INFO, { path: '/health' }));
    expect([onHealth.option, onHealth.message]).toEqual(['path', expect.stringContaining(', or set healthPath.')]);
    const metadata = refusal(
      () =>
        new HttpMcpServer(INFO, {
          healthPath: '/.well-known/oauth-protected-resource/mcp',
          authorization: { issuer: 'https://auth.example', audience: 'https://mcp.example/mcp' },
        }),
    );
    expect(metadata.message).toContain('OAuth protected-resource metadata');
    // Distinct paths, and a route left out, are fine; so is the endpoint at `/` with authorization.
    expect(() => new HttpMcpServer(INFO, { healthPath: '/healthz', readyPath: false, path: '/health' })).not.toThrow();
    expect(() => new HttpMcpServer(INFO, { healthPath: false, readyPath: '/mcp/ready' })).not.toThrow();
    expect(
      () =>
        new HttpMcpServer(INFO, {
          path: '/',
          authorization: { issuer: 'https://auth.example', audience: 'https://mcp.example/' },
        }),
    ).not.toThrow();
  });

  // Both endpoints compare the request's percent-encoded path: these were accepted and never matched a request.
  it.each(['/santé', '/my api', '/health ', '/./health', '/a/../b', '/health#frag'])(
    'a path a URL writes otherwise (%s) is refused; its URL form is accepted',
    (raw) => {
      const error = refusal(() => new HttpMcpServer(INFO, { healthPath: raw }));
      expect([error.option, error.message]).toEqual(['healthPath', expect.stringContaining('as a URL writes it')]);
      expect(refusal(() => toFetchHandler(new FetchMcpServer(INFO), { path: raw })).option).toBe('path');
    },
  );
  it('accepts percent-encoded and other URL-legal paths', () => {
    for (const path of ['/sant%C3%A9', '/my%20api', '//mcp', '/%2F', '/a;b', '/a@b', '/v1.2/mcp', '/mcp/']) {
      expect(() => new HttpMcpServer(INFO, { path })).not.toThrow();
    }
  });

  // Express 5 reads these as route patterns: `/:name` answered every one-segment path (the MCP endpoint's GET
  // included) and `/mcp?` threw a raw PathError at start(); the fetch endpoint compares paths literally.
  it.each(['/:name', '/*splat', '/mcp{/x}', '/{mcp}', '/mc(p)', '/mcp?', '/mcp+', '/a!b', '/[x]', '/a\\b'])(
    'a path with route-pattern characters (%s) is refused for every route option',
    (pattern) => {
      for (const option of ['path', 'healthPath', 'readyPath'] as const) {
        const error = refusal(() => new HttpMcpServer(INFO, { [option]: pattern }));
        expect([error.option, error.message]).toEqual([
          option,
          expect.stringContaining('without route-pattern characters'),
        ]);
      }
      expect(refusal(() => toFetchHandler(new FetchMcpServer(INFO), { path: pattern })).option).toBe('path');
    },
  );

  it('value errors that were RangeErrors are InvalidOptionsErrors with a code', () => {
    expect(refusal(() => new StdioMcpServer(INFO, { maxMessageBytes: 0 })).message).toContain(
      'StdioMcpServer option maxMessageBytes must be a whole number of bytes >= 1, got 0',
    );
    expect(refusal(() => new StdioMcpServer(INFO, { stdinCloseGraceMs: -1 })).option).toBe('stdinCloseGraceMs');
    expect(refusal(() => new StdioMcpServer(INFO, { pingIntervalMs: -1 })).option).toBe('pingIntervalMs');
    expect(refusal(() => new HttpMcpServer(INFO, { pingTimeoutMs: 0 })).option).toBe('pingTimeoutMs');
    expect(refusal(() => new HttpMcpServer(INFO, { keepAliveMs: -5 })).option).toBe('keepAliveMs');
    expect(refusal(() => new HttpMcpServer(INFO, { path: 'mcp' })).message).toContain(
      'path must be a path starting with "/"',
    );
    expect(refusal(() => new StdioMcpServer(INFO, { defaultToolTimeoutMs: -1 })).option).toBe('defaultToolTimeoutMs');
    expect(refusal(() => new StdioMcpServer(INFO, { tasks: { maxTasks: 0 } })).option).toBe('tasks.maxTasks');
    expect(refusal(() => new StdioMcpServer(INFO, { resourcePageSize: 0 })).option).toBe('resourcePageSize');
  });

  it('base options of the wrong type, and options that are not an object', () => {
    expect(refusal(() => new HttpMcpServer(INFO, { documents: 'yes' } as never)).message).toContain(
      'documents must be a DocumentStore',
    );
    expect(refusal(() => new StdioMcpServer(INFO, { logger: console } as never)).message).toContain(
      'logger must be a logger',
    );
    expect(refusal(() => new StdioMcpServer(INFO, null as never)).message).toBe(
      'StdioMcpServer options must be an object (or left out), got null.',
    );
    expect(refusal(() => new StdioMcpServer(INFO, { tasks: { maxTask: 1 } } as never)).message).toContain(
      '"maxTask" (did you mean "maxTasks"?)',
    );
  });

  it('a short requestStateKey is refused without the key in the message', () => {
    const error = refusal(() => new StdioMcpServer(INFO, { requestStateKey: 'short-secret' }));
    expect(error.message).toContain(
      'requestStateKey must be a string or Uint8Array of at least 32 bytes, got a key of 12 bytes',
    );
    expect(error.message).not.toContain('short-secret');
  });

  it('toFetchHandler checks its options argument and values', () => {
    const server = new FetchMcpServer(INFO);
    expect(refusal(() => toFetchHandler(server, null as never)).message).toBe(
      'toFetchHandler options must be an object (or left out), got null.',
    );
    expect(refusal(() => toFetchHandler(server, { maxRequestBodyBytes: '1mb' } as never)).option).toBe(
      'maxRequestBodyBytes',
    );
    expect(refusal(() => toFetchHandler(server, { dnsRebindingProtection: true })).option).toBe(
      'dnsRebindingProtection',
    );
  });
});

describe('document options', () => {
  it('DocumentStore refuses values of the wrong type or range', () => {
    expect(refusal(() => new DocumentStore({ watch: 'false' } as never)).message).toBe(
      'DocumentStore option watch must be a boolean (true or false), got "false".',
    );
    expect(refusal(() => new DocumentStore({ maxFileSizeBytes: -1 })).option).toBe('maxFileSizeBytes');
    expect(refusal(() => new DocumentStore({ conversionTimeoutMs: '5s' } as never)).option).toBe('conversionTimeoutMs');
    expect(refusal(() => new DocumentStore({ conversionThreads: 0.5 })).option).toBe('conversionThreads');
    // Larger heaps reached V8 as a --max-old-space-size it refused ("out of bounds") or that crashed each conversion.
    expect(refusal(() => new DocumentStore({ conversionHeapMb: 1024 * 1024 + 1 })).message).toContain('<= 1048576');
    expect(refusal(() => new DocumentStore({ maxReadChars: 0 })).option).toBe('maxReadChars');
    expect(refusal(() => new DocumentStore({ cacheMaxBytes: -1 })).option).toBe('cacheMaxBytes');
  });

  it('registerFolder and registerDocument refuse values of the wrong type', async () => {
    const store = new DocumentStore({ watch: false });
    try {
      expect(refusal(() => store.registerFolder({ path: '.', extensions: 'md' } as never)).message).toBe(
        'registerFolder option extensions must be an array of strings, got "md".',
      );
      expect(refusal(() => store.registerFolder({ path: '.', maxFileSizeBytes: -1 })).option).toBe('maxFileSizeBytes');
      expect(refusal(() => store.registerFolder({ path: '.', followSymlinks: 1 } as never)).option).toBe(
        'followSymlinks',
      );
      expect(refusal(() => store.registerDocument({ path: 'package.json', name: 5 } as never)).option).toBe('name');
      expect(refusal(() => store.registerDocument(undefined as never)).message).toContain(
        'registerDocument argument must be a path or a config object',
      );
      // A URL (no own keys) and a config without `path` were refused as "the path is empty" of the working directory.
      const url = refusal(() => store.registerDocument(new URL('file:///etc/hostname') as never));
      expect(url.message).toBe(
        'registerDocument argument must be a path or a config object { path, ... }, got a URL. For a file: URL, pass fileURLToPath(url) from node:url.',
      );
      expect(refusal(() => store.registerFolder({ title: 'Docs' } as never)).message).toBe(
        'registerFolder argument must be a path or a config object { path, ... }, got an object.',
      );
    } finally {
      await store.close();
    }
  });

  it('createDocumentTools checks its options', () => {
    const store = new DocumentStore({ watch: false });
    expect(refusal(() => createDocumentTools(store, { listPageSize: 0 })).option).toBe('listPageSize');
    expect(refusal(() => createDocumentTools(store, { indexInBackground: 'yes' } as never)).option).toBe(
      'indexInBackground',
    );
  });
});

describe('middleware and cluster options', () => {
  it('middleware factories refuse wrong values and unknown keys', () => {
    expect(refusal(() => rateLimit({ points: 0, durationMs: 1000 })).option).toBe('points');
    expect(refusal(() => rateLimit({ points: 1, durationMs: 10 })).option).toBe('durationMs');
    expect(refusal(() => rateLimit({ points: 1 } as never)).message).toContain('durationMs must be');
    expect(refusal(() => rateLimit({ points: 1, durationMs: 1000, by: 'user' } as never)).option).toBe('by');
    expect(
      refusal(() => rateLimit({ points: 1, durationMs: 1000, tools: { t: { points: -1, durationMs: 1000 } } })).message,
    ).toContain('rateLimit() option tools.t points must be an integer >= 1');
    expect(refusal(() => responseCache({ ttlMs: 0 })).option).toBe('ttlMs');
    expect(refusal(() => responseCache({ ttl: 5 } as never)).message).toContain(
      'Unknown responseCache() option: "ttl"',
    );
    expect(refusal(() => auditLog({ onEntry: 'log' } as never)).option).toBe('onEntry');
  });

  it('createCluster refuses bad options before connecting', async () => {
    await expect(createCluster({} as never)).rejects.toThrow(/createCluster\(\) option redis must be/);
    await expect(createCluster({ redis: 'redis://127.0.0.1:1', requestStateKey: 'short' })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      option: 'requestStateKey',
    });
    await expect(createCluster({ redis: 'redis://127.0.0.1:1', heartbeatMs: -1 })).rejects.toBeInstanceOf(
      InvalidOptionsError,
    );
  });
});

describe('tool and prompt specs', () => {
  it('defineTool and definePrompt refuse a spec that is not an object and fields of the wrong type', async () => {
    const { defineTool } = await import('../../src/registry/tool.js');
    const { definePrompt } = await import('../../src/prompts/prompt.js');
    expect(refusal(() => defineTool(null as never)).message).toContain('defineTool argument must be a spec object');
    expect(refusal(() => defineTool({ name: 't', execute: 'x' } as never)).message).toBe(
      'defineTool option (tool "t") execute must be a function, got "x".',
    );
    expect(refusal(() => defineTool({ name: 't', annotations: 'readonly', execute: () => 'x' } as never)).option).toBe(
      'annotations',
    );
    expect(refusal(() => definePrompt({ name: 'p', load: () => 'x', descripton: 'd' } as never)).message).toContain(
      '"descripton" (did you mean "description"?)',
    );
    expect(refusal(() => definePrompt({ name: 'p', title: 5, load: () => 'x' } as never)).option).toBe('title');
  });
});
