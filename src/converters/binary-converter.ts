/**
 * Images, audio and anything no other converter claims: passed through as a blob.
 */
import type { ConvertedContent, Converter, ConverterInput } from './converter.js';
import { essenceOf } from './mime.js';

/**
 * Returns the bytes unchanged as `{ kind: 'blob' }` with the input's MIME type (parameters dropped,
 * `application/octet-stream` when empty). Claims `image/*` and `audio/*`; the registry also uses it as the
 * fallback for every type nothing else handles.
 */
export class BinaryConverter implements Converter {
  readonly name = 'binary';
  readonly mimeTypes: readonly string[] = ['image/*', 'audio/*'];

  /** Never rejects. */
  async convert(input: ConverterInput): Promise<ConvertedContent> {
    return { kind: 'blob', data: input.bytes, mimeType: essenceOf(input.mimeType) || 'application/octet-stream' };
  }
}
