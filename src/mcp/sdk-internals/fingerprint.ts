/**
 * A short, stable fingerprint of a text (32-bit FNV-1a over its UTF-16 code units, hex): used to
 * notice that an SDK function a shortcut reproduces changed its source. Not a security hash.
 */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** The name of the first of `sources` whose fingerprint is none of its `known` ones (the SDK changed it), else undefined. */
export function changedSource(
  sources: Readonly<Record<string, unknown>>,
  known: Readonly<Record<string, readonly string[]>>,
): string | undefined {
  for (const [name, fingerprints] of Object.entries(known)) {
    if (!fingerprints.includes(fingerprint(String(sources[name])))) return name;
  }
  return undefined;
}
