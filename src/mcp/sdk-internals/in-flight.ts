import type { RequestId, Server } from '@modelcontextprotocol/server';

/** `tools/call` requests each view is serving right now (ids), so a shutdown can answer them. */
const calls = new WeakMap<Server, Set<RequestId>>();

/** Marks `id` in flight on `view`; returns the function that marks it done. */
export function beginCall(view: Server, id: RequestId): () => void {
  let ids = calls.get(view);
  if (!ids) calls.set(view, (ids = new Set()));
  ids.add(id);
  return () => ids.delete(id);
}

/**
 * Answers every call still in flight on `view` with a JSON-RPC error (-32603, `message`),
 * so clients are not left waiting when the server stops under them. The handlers' own
 * late answers are dropped by the closing transport. Best effort: send failures are ignored.
 */
export async function answerInFlight(view: Server, message: string): Promise<void> {
  const ids = calls.get(view);
  if (!ids || ids.size === 0 || !view.transport) return;
  const pending = [...ids];
  ids.clear();
  await Promise.allSettled(
    pending.map((id) =>
      view.transport!.send({ jsonrpc: '2.0', id, error: { code: -32603, message } }, { relatedRequestId: id }),
    ),
  );
}
