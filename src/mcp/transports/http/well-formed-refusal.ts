/** A `\udXXX` escape of a lone surrogate in JSON text, not preceded by an escaping backslash. */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(?:d[89a-f][0-9a-f]{2})/gi;

/**
 * Error responses the SDK builds itself, before any view runs (say, a 2026-07-28 header/body
 * mismatch that quotes the body's `params.uri`), can quote client input. `JSON.stringify` writes
 * a lone surrogate in it as a `\udXXX` escape, which strict decoders refuse; this rewrites those
 * escapes to U+FFFD, as views do for everything they send (`wire/well-formed.ts`). Only JSON
 * responses with a status of 400 or more are read (small refusals); everything else passes
 * untouched, streams included.
 */
export async function wellFormedRefusal(response: Response): Promise<Response> {
  if (response.status < 400 || !(response.headers.get('content-type') ?? '').includes('json')) return response;
  const text = await response.text();
  const fixed = text.replace(LONE_SURROGATE_ESCAPE, (_match, slashes: string) => `${slashes}\\ufffd`);
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(fixed, { status: response.status, statusText: response.statusText, headers });
}
