/**
 * Base64 and UTF-8 helpers that run on every runtime the toolkit serves from: Node's `Buffer` when
 * it exists (fast, and what the toolkit always used), else the web-standard `btoa` / `atob` /
 * `TextEncoder` (Cloudflare's workerd without `nodejs_compat` has no `Buffer`).
 */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Base64 (RFC 4648 section 4) of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Base64url without padding (RFC 4648 section 5) of `bytes`. */
export function toBase64Url(bytes: Uint8Array): string {
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Base64url of the UTF-8 bytes of `text`. */
export function textToBase64Url(text: string): string {
  return NodeBuffer ? NodeBuffer.from(text).toString('base64url') : toBase64Url(new TextEncoder().encode(text));
}

/**
 * The UTF-8 text a base64url (or base64) string encodes. Like `Buffer.from(value, 'base64url')`,
 * characters outside the alphabet are skipped rather than thrown on; invalid UTF-8 becomes U+FFFD.
 */
export function base64UrlToText(value: string): string {
  if (NodeBuffer) return NodeBuffer.from(value, 'base64url').toString('utf8');
  const clean = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .replace(/[^A-Za-z0-9+/]/g, '');
  const padded = clean.length % 4 === 1 ? clean.slice(0, -1) : clean;
  const binary = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

/** Base64 of the UTF-8 bytes of `text`. */
export function textToBase64(text: string): string {
  return NodeBuffer ? NodeBuffer.from(text, 'utf8').toString('base64') : toBase64(new TextEncoder().encode(text));
}

/** The UTF-8 text a base64 string encodes (same leniency as {@link base64UrlToText}). */
export function base64ToText(value: string): string {
  return NodeBuffer ? NodeBuffer.from(value, 'base64').toString('utf8') : base64UrlToText(value);
}
