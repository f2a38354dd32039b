// The CLI's flag values: an empty or unreadable value is refused, never read as a default. Numeric flags read plain
// decimal text only. `Number()` took '' and ' ' as 0 (`--port ''` served on a
// random port, `--cache-size ''` turned the cache off, `--ping-interval ''` turned pings off) and '0x10', '1e2',
// '+5' or ' 2' as numbers; each flag's own check now refuses them with its message.
import { describe, expect, it } from 'vitest';
import { documentLimits } from '../../src/cli/document-limits.js';
import { flagNumber, parseExtensions, parsePort } from '../../src/cli/flag-parsers.js';
import { sessionOptions } from '../../src/cli/session-flags.js';
import { pingIntervalMs } from '../../src/cli/tls-flags.js';
import { startCli } from './cli-process.js';

const NOT_DECIMAL = ['', ' ', ' 2', '2 ', '0x10', '1e2', '+5', '-1', '.5', '5.', 'Infinity', '1_000', '٣'];

describe('CLI flag values', () => {
  it('--ext names at least one extension; absent, it means every supported type', () => {
    expect(parseExtensions(undefined)).toBeUndefined();
    expect(parseExtensions(' md, .txt ,')).toEqual(['md', '.txt']);
    for (const value of ['', ',', ' , ']) {
      expect(() => parseExtensions(value)).toThrow(
        `--ext must name at least one extension (e.g. md,txt), got "${value}"`,
      );
    }
  });

  it('flagNumber reads plain decimal and nothing else', () => {
    expect([flagNumber('0'), flagNumber('30'), flagNumber('1.5'), flagNumber('007')]).toEqual([0, 30, 1.5, 7]);
    for (const text of NOT_DECIMAL) expect(flagNumber(text), JSON.stringify(text)).toBeNaN();
  });

  it.each(NOT_DECIMAL)('every numeric flag refuses %j with its own message', (text) => {
    expect(() => parsePort(text)).toThrow(`--port must be 0-65535, got "${text}"`);
    expect(() => documentLimits({ maxFileSize: text })).toThrow(`--max-file-size must be a positive integer`);
    expect(() => documentLimits({ cacheSize: text })).toThrow(`--cache-size must be a non-negative integer`);
    expect(() => pingIntervalMs({ pingInterval: text })).toThrow(`--ping-interval must be a number of seconds >= 0`);
    expect(() => sessionOptions({ maxSessions: text })).toThrow(`--max-sessions must be a whole number >= 1`);
    expect(() => sessionOptions({ sessionIdleTimeout: text })).toThrow(`--session-idle-timeout must be a whole number`);
  });

  it('keeps every value it took before that is written in decimal', () => {
    expect(parsePort('0')).toBe(0);
    expect(parsePort('8080')).toBe(8080);
    expect(documentLimits({ maxFileSize: '5', cacheSize: '0', watchDebounce: '250' })).toEqual({
      maxFileSizeBytes: 5 * 1024 * 1024,
      cacheMaxBytes: 0,
      watchDebounceMs: 250,
    });
    expect(pingIntervalMs({ pingInterval: '1.5' })).toBe(1500);
    expect(sessionOptions({ maxSessions: '3', sessionIdleTimeout: '0' })).toMatchObject({
      maxSessions: 3,
      sessionIdleTimeoutMs: 0,
    });
  });

  it('refuses values over what the option takes, naming the flag, not the library option', () => {
    expect(() => documentLimits({ conversionTimeout: '2147483648' })).toThrow(
      '--conversion-timeout must be a positive integer <= 2147483647, got "2147483648"',
    );
    expect(() => documentLimits({ watchDebounce: '2147483648' })).toThrow('--watch-debounce must be');
    expect(() => documentLimits({ watchMaxWait: '2147483648' })).toThrow('--watch-max-wait must be');
    expect(() => documentLimits({ conversionHeap: '99999999999999999999' })).toThrow(
      '--conversion-heap must be a positive integer <= 1048576, got "99999999999999999999"',
    );
    expect(() => documentLimits({ maxFileSize: '9999999999999' })).toThrow(
      '--max-file-size must be a positive integer',
    );
    expect(() => pingIntervalMs({ pingInterval: '2147484' })).toThrow(
      '--ping-interval must be a number of seconds >= 0 and <= 2147483, got "2147484"',
    );
    expect(() => sessionOptions({ sessionIdleTimeout: '2147484' })).toThrow(
      '--session-idle-timeout must be a whole number >= 0 and <= 2147483, got "2147484"',
    );
    expect(documentLimits({ conversionTimeout: '2147483647', conversionHeap: '1048576' })).toEqual({
      conversionTimeoutMs: 2147483647,
      conversionHeapMb: 1048576,
    });
    expect(pingIntervalMs({ pingInterval: '2147483' })).toBe(2147483000);
  });

  // The built CLI, through both parsers (serve --stdio is read without commander) and the two client-side commands.
  it.each([
    [
      ['serve', '--stdio', '--max-file-size', 'abc', 'docs'],
      'Error: --max-file-size must be a positive integer, got "abc"',
    ],
    [['serve', '--stdio', '--cache-size', '', 'docs'], 'Error: --cache-size must be a non-negative integer, got ""'],
    [['serve', '--port', '', 'docs'], 'Error: --port must be 0-65535, got ""'],
    [
      ['gateway', '--config', 'none.json', '--upstream-wait', ''],
      'Error: --upstream-wait must be a number of seconds, got ""',
    ],
    [
      ['call', 'node x.js', 'tool', '--timeout', '0x10'],
      'Error: --timeout must be a positive number of milliseconds <= 2147483647, got "0x10"',
    ],
    [
      ['serve', '--stdio', '--max-sessions', '3', 'docs'],
      'Error: --session-idle-timeout, --max-sessions and --session-limit-policy need HTTP: drop --stdio',
    ],
    [['serve', '--stdio', '--admin-token', 'x', 'docs'], 'Error: --admin-token needs HTTP: drop --stdio'],
    // Refused for the transport before the files are read (it said "cannot read /nope (ENOENT)").
    [
      ['serve', '--stdio', '--https-cert', '/nope', '--https-key', '/nope', 'docs'],
      'Error: --https-cert, --https-key and --https-ca need HTTP: drop --stdio',
    ],
    [
      ['serve', '--stdio', '--https-ca', '/nope', 'docs'],
      'Error: --https-cert, --https-key and --https-ca need HTTP: drop --stdio',
    ],
    [
      ['serve', '--stdio', '--ext', ',', 'docs'],
      'Error: --ext must name at least one extension (e.g. md,txt), got ","',
    ],
  ])('`%j` exits 1 with the flag named', async (args, message) => {
    const cli = startCli(args);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toBe(`mcp-toolkit: ${message}\n`);
    expect(cli.stdout()).toBe('');
  });
});
