import type { Request as ExpressRequest } from 'express';
import { setRequestHeader } from './request-headers.js';

/** The media types a handshake-era request must accept (MCP 2025-11-25, Streamable HTTP), by method. */
const REQUIRED: Partial<Record<string, readonly string[]>> = {
  POST: ['application/json', 'text/event-stream'],
  GET: ['text/event-stream'],
};

/**
 * Checks a handshake-era request's `Accept` header as RFC 9110 section 12.5.1 reads it
 * (media ranges matched case-insensitively, `*` wildcards such as `*\/*` and
 * `application/*`, q-values with `q=0` meaning "not acceptable"; parsed by express's
 * `accepts`/`negotiator`, not by substring). A POST must accept both `application/json`
 * and `text/event-stream`, a GET `text/event-stream` (Streamable HTTP: "The client MUST
 * include an Accept header"); an absent header is refused like the SDK refuses it.
 *
 * On success the header is rewritten to the plain list of those types, because the SDK
 * transport behind checks it by substring (`Accept: *\/*` would get its 406).
 *
 * @returns undefined when acceptable, else the 406 message to answer with.
 */
export function acceptRefusal(req: ExpressRequest): string | undefined {
  const checked = checkAccept(req.method, req.headers.accept, (type) => req.accepts(type) !== false);
  if (checked.refusal === undefined && checked.rewritten) setRequestHeader(req, 'Accept', checked.rewritten);
  return checked.refusal;
}

/**
 * The runtime-neutral part of {@link acceptRefusal}: `accepts(type)` answers whether the header's
 * media ranges allow `type` (RFC 9110). Returns the 406 message, or the plain list to rewrite the
 * header to (for methods that need one).
 */
export function checkAccept(
  method: string,
  header: string | undefined,
  accepts: (type: string) => boolean,
): { refusal?: string; rewritten?: string } {
  const required = REQUIRED[method];
  if (!required) return {};
  const missing = !header?.trim() ? required : required.filter((type) => !accepts(type));
  if (missing.length > 0) {
    return {
      refusal:
        required.length > 1
          ? `Not Acceptable: Client must accept both ${required.join(' and ')}`
          : `Not Acceptable: Client must accept ${required[0]}`,
    };
  }
  return { rewritten: required.join(', ') };
}

/** Whether a request's `Accept` allows an event-stream response (RFC 9110; an absent header does not count). */
export function acceptsEventStream(req: ExpressRequest): boolean {
  return Boolean(req.headers.accept?.trim()) && req.accepts('text/event-stream') !== false;
}
