/**
 * The one URI normal form every lookup compares (RFC 3986 section 6.2.2, syntax-based
 * normalization; RFC 3987 section 3.1 for non-ASCII):
 * - the scheme and an authority's host are lowercased (6.2.2.1);
 * - the hex digits of a percent-encoding are uppercased (6.2.2.1);
 * - percent-encoded unreserved characters (`A-Z a-z 0-9 - . _ ~`) are decoded (6.2.2.2);
 * - non-ASCII characters are percent-encoded as UTF-8 (an IRI mapped to its URI).
 * Dot segments are left alone: `a/../b` names what its server says it names.
 *
 * So `memo://Item/%7euser`, `MEMO://Item/~user` and `memo://Item/%7Euser` are one URI, and
 * `file:///tmp/caf%C3%A9.txt` equals `file:///tmp/café.txt`. Pure ASCII URIs without `%` and
 * with a lowercase scheme and host come back as the same string (no allocation).
 */
export function normalizeUri(uri: string): string {
  if (!NEEDS_WORK.test(uri)) return uri;
  const { prefix, rest } = splitSchemeAndHost(uri);
  return prefix + normalizeUriPart(rest);
}

/**
 * The same normalization for a piece of a URI that holds no scheme or host to lowercase (a
 * literal of a URI template after its first variable): percent-encodings uppercased, unreserved
 * ones decoded, non-ASCII percent-encoded as UTF-8.
 */
export function normalizeUriPart(rest: string): string {
  if (!/[%\u0080-\uffff]/.test(rest)) return rest;
  let out = '';
  for (let index = 0; index < rest.length; index += 1) {
    const char = rest[index]!;
    if (char === '%' && isHex(rest[index + 1]) && isHex(rest[index + 2])) {
      const hex = rest.slice(index + 1, index + 3).toUpperCase();
      const decoded = String.fromCharCode(parseInt(hex, 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${hex}`;
      index += 2;
    } else if (char.charCodeAt(0) > 0x7f) {
      const code = rest.codePointAt(index)!;
      const whole = String.fromCodePoint(code);
      out += encodeNonAscii(whole);
      index += whole.length - 1;
    } else out += char;
  }
  return out;
}

/** Anything outside the fast path: a `%`, a non-ASCII character, or an uppercase letter before the path. */
const NEEDS_WORK = /[%\u0080-\uffff]|^[^:/?#]*[A-Z]|^[^:/?#]*:\/\/[^/?#]*[A-Z]/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

function isHex(char: string | undefined): boolean {
  return char !== undefined && /^[0-9A-Fa-f]$/.test(char);
}

function encodeNonAscii(char: string): string {
  try {
    return encodeURIComponent(char);
  } catch {
    return '%EF%BF%BD'; // a lone surrogate has no UTF-8 form: U+FFFD, as on the way out
  }
}

/** The lowercased `scheme:` and `//userinfo@host` (port kept), and the rest to normalize by character. */
function splitSchemeAndHost(uri: string): { prefix: string; rest: string } {
  const scheme = SCHEME.exec(uri)?.[0];
  if (!scheme) return { prefix: '', rest: uri };
  const afterScheme = uri.slice(scheme.length);
  if (!afterScheme.startsWith('//')) return { prefix: scheme.toLowerCase(), rest: afterScheme };
  const end = afterScheme.slice(2).search(/[/?#]/);
  const authority = end < 0 ? afterScheme.slice(2) : afterScheme.slice(2, end + 2);
  if (/[%\u0080-\uffff]/.test(authority)) return { prefix: `${scheme.toLowerCase()}//`, rest: afterScheme.slice(2) };
  const at = authority.lastIndexOf('@');
  const host = `${authority.slice(0, at + 1)}${authority.slice(at + 1).toLowerCase()}`;
  return { prefix: `${scheme.toLowerCase()}//${host}`, rest: afterScheme.slice(2 + authority.length) };
}
