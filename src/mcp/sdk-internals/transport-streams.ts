import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

/** The part of the SDK transport's private stream table (2.4) used here. */
type StreamTable = Map<string, { cleanup?: () => void }>;

/**
 * Ends the legacy transport's open SSE stream `streamId` (a POST's response stream), so
 * that a client resuming it (`GET` with `Last-Event-ID`) after it died behind a proxy is
 * served instead of refused with 409 while the dead stream still looks open here.
 *
 * The SDK (2.4) keeps its streams in the private `_streamMapping`; its public
 * `closeSSEStream` takes a request id, which a resuming client does not send. When an SDK
 * version has no such table this does nothing and returns false: the SDK then answers the
 * resume as it always did (409 while the old stream is open).
 */
export function closeTransportStream(transport: WebStandardStreamableHTTPServerTransport, streamId: string): boolean {
  const table = (transport as unknown as { _streamMapping?: unknown })._streamMapping;
  if (!(table instanceof Map)) return false;
  const entry = (table as StreamTable).get(streamId);
  if (typeof entry?.cleanup === 'function') entry.cleanup();
  return true;
}
