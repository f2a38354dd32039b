import { InvalidOptionsError } from './errors.js';
import leven from 'leven';

/**
 * The keys of an options type `T`, checked by the compiler against `T` both ways: a key that
 * `T` does not have is a type error, and so is a key of `T` left out of the list (the error names
 * it as `missing`). So the runtime check of {@link assertKnownOptions} cannot fall behind the type.
 *
 * ```ts
 * const KEYS = optionKeys<{ a?: number; b?: string }>()(['a', 'b']);
 * ```
 */
export function optionKeys<T>() {
  return <const K extends readonly (keyof T & string)[]>(
    keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : { missing: Exclude<keyof T, K[number]> }),
  ): ReadonlySet<string> => new Set(keys);
}

/**
 * Refuses an options object with a key that `known` lacks, so that a misspelled or invented
 * option (`sslCert`, `timeOutMs`) fails at once instead of being ignored without a word.
 * `undefined` and non-objects pass (callers apply their own defaults and type checks).
 * @param owner - what the options configure, as the message names it (`HttpMcpServer options`).
 * @param hint - a sentence appended to the message (where the key may belong instead).
 * @throws InvalidOptionsError naming every unknown key, a near spelling where one exists, and the known keys.
 */
export function assertKnownOptions(owner: string, options: unknown, known: ReadonlySet<string>, hint = ''): void {
  if (typeof options !== 'object' || options === null) return;
  const unknown = Object.keys(options).filter((key) => !known.has(key));
  if (unknown.length === 0) return;
  const described = unknown.map((key) => {
    const near = nearestKey(key, known);
    return near ? `"${key}" (did you mean "${near}"?)` : `"${key}"`;
  });
  throw new InvalidOptionsError(
    owner,
    unknown,
    `Unknown ${owner}: ${described.join(', ')}. Known: ${[...known].sort().join(', ')}.${hint ? ` ${hint}` : ''}`,
  );
}

/** The known key within two edits of `key` (case ignored), the closest one. */
function nearestKey(key: string, known: ReadonlySet<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = leven(key.toLowerCase(), candidate.toLowerCase(), { maxDistance: bestDistance });
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}
