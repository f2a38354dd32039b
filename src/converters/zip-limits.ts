/**
 * Refuses a zip archive (DOCX and other Office Open XML files) whose content inflates past a byte limit,
 * before its parser inflates it: a 1 MiB file that inflates to 300 MiB is a decompression bomb.
 *
 * Two checks, both needed: the sizes the central directory declares (read with fflate, without inflating
 * anything) catch an honest bomb at once; the bytes actually inflated, counted chunk by chunk while
 * inflating with JSZip (the reader mammoth itself uses, so the entries counted are the entries it reads),
 * catch an archive whose declared sizes lie. Inflated chunks are counted and dropped, never kept.
 */
import { ConversionLimitError } from '../errors.js';

/** Sums the uncompressed sizes the central directory declares; `undefined` when it cannot be read. */
async function declaredSize(bytes: Uint8Array): Promise<number | undefined> {
  const { unzipSync } = await import('fflate');
  let total = 0;
  try {
    unzipSync(bytes, {
      filter: (entry) => {
        total += entry.originalSize;
        return false; // read the directory only: nothing is inflated
      },
    });
  } catch {
    return undefined; // not a zip, or a broken directory: the parser reports it in its own words
  }
  return total;
}

/**
 * Inflates every entry as a stream and counts its bytes, stopping at the first chunk past `limit`.
 * Returns false when JSZip cannot open the archive (left to the parser to report).
 */
async function inflatesWithin(bytes: Uint8Array, limit: number): Promise<boolean> {
  const { default: JSZip } = await import('jszip');
  let zip: InstanceType<typeof JSZip>;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch {
    return true;
  }
  let total = 0;
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue;
    const within = await new Promise<boolean>((resolve) => {
      // JSZip's node stream is a classic (event) stream: no async iteration, no destroy.
      const stream = entry.nodeStream('nodebuffer');
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > limit) {
          stream.pause();
          stream.removeAllListeners('data');
          resolve(false);
        }
      });
      stream.on('end', () => resolve(true));
      stream.on('error', () => resolve(true)); // a corrupt entry: the parser fails on it in its own words
    });
    if (!within) return false;
  }
  return true;
}

/**
 * Throws `ConversionLimitError('inflated', path, limit)` when the zip archive `bytes` declares, or
 * actually inflates to, more than `limit` bytes in all. Bytes that are not a readable zip pass: the
 * format's parser rejects them with its own message.
 * @throws ConversionLimitError `inflated`
 */
export async function assertZipWithinLimit(bytes: Uint8Array, path: string, limit: number): Promise<void> {
  const declared = await declaredSize(bytes);
  if (declared !== undefined && declared > limit) throw new ConversionLimitError('inflated', path, limit);
  if (!(await inflatesWithin(bytes, limit))) throw new ConversionLimitError('inflated', path, limit);
}
