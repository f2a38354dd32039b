import type { IncomingMessage } from 'node:http';

/** The first value of a request header (`name` in lower case), or undefined. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Replaces a request header, in `req.headers` and in `req.rawHeaders` (which the web
 * bridge reads to build the SDK's `Request`), so the SDK sees the value we decided on.
 */
export function setRequestHeader(req: IncomingMessage, name: string, value: string): void {
  const lower = name.toLowerCase();
  req.headers[lower] = value;
  const raw = req.rawHeaders;
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== lower) kept.push(raw[i]!, raw[i + 1]!);
  }
  kept.push(name, value);
  raw.splice(0, raw.length, ...kept);
}
