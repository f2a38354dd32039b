import type { CallToolResult } from '@modelcontextprotocol/server';
import { UpstreamError } from '../errors.js';
import type { ToolContext } from '../registry/tool-context.js';
import { followAbort } from '../registry/context-abort.js';
import { NO_SDK_TIMEOUT, upstreamCallTool } from '../mcp/sdk-internals/upstream-client.js';

type Client = import('@modelcontextprotocol/client').Client;
type Progress = { progress: number; total?: number; message?: string };

/**
 * Routes an upstream's `notifications/progress` to the forwarded call that asked for them, by our
 * own progress tokens. The SDK's own routing drops a progress notification that is read together
 * with its response (the response is handled first), and upstreams often send their last progress
 * right before the result; our handler keeps the route open until the call's result was handled.
 */
export class ProgressRouter {
  readonly #routes = new Map<string, (progress: Progress) => void>();
  #next = 0;

  /** Installs the router as `client`'s progress handler. */
  attach(client: Client): void {
    client.setNotificationHandler('notifications/progress', (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      this.#routes.get(String(progressToken))?.({
        progress,
        ...(total !== undefined && { total }),
        ...(message && { message }),
      });
    });
  }

  /** A new token routed to `onProgress`; `release()` it when the call is over. */
  open(onProgress: (progress: Progress) => void): { token: string; release(): void } {
    const token = `fwd-${++this.#next}`;
    this.#routes.set(token, onProgress);
    return { token, release: () => this.#routes.delete(token) };
  }
}

/**
 * Forwards one `tools/call` (with `call.meta` in its `_meta`): the caller's progress token is replaced by ours (see {@link ProgressRouter}),
 * the SDK's own timeout is not used (ours restarts on progress) and, with `call.plain` (no `Mcp-Param-*`
 * headers to mirror: stdio or the handshake era), the request skips `callTool`'s per-call extras
 * (`upstreamCallTool`; the tool's output schema is checked by our tool call),
 * each progress goes to the caller in order and before the result, and the call is cancelled (the SDK
 * sends `notifications/cancelled`) when the caller's signal aborts or when `timeoutMs` passes with
 * neither a result nor a progress notification.
 * @throws the caller's abort reason when its signal aborted; `UpstreamError` (`UPSTREAM_UNAVAILABLE`)
 *   after `timeoutMs`; whatever the SDK client throws otherwise.
 */
export async function forwardToolCall(
  client: Client,
  router: ProgressRouter,
  call: {
    upstream: string;
    name: string;
    args: Record<string, unknown>;
    timeoutMs: number;
    meta?: object;
    plain: boolean;
  },
  context: ToolContext,
): Promise<CallToolResult> {
  const abort = new AbortController();
  // The caller's cancellation (or disconnection, stop(), the tool timeout) cancels the upstream request.
  const unfollow = followAbort(context, () => abort.abort(context.signal.reason));
  let idle: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      const why = `Upstream "${call.upstream}" did not answer the call to "${call.name}" within ${call.timeoutMs} ms.`;
      abort.abort(new UpstreamError('UPSTREAM_UNAVAILABLE', call.upstream, why));
    }, call.timeoutMs);
  };
  let progressSent: Promise<void> = Promise.resolve();
  const route = router.open((progress) => {
    arm();
    progressSent = progressSent.then(() => context.reportProgress(progress)).catch(() => {});
  });
  arm();
  try {
    const params = { name: call.name, arguments: call.args, _meta: { ...call.meta, progressToken: route.token } };
    const options = { signal: abort.signal, timeout: NO_SDK_TIMEOUT };
    const result = await (call.plain ? upstreamCallTool(client, params, options) : client.callTool(params, options));
    // Notifications read with the result are dispatched after it: let them run, then send them first.
    await new Promise((resolve) => setImmediate(resolve));
    await progressSent;
    return { ...result, content: result.content ?? [] } as CallToolResult;
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason;
    if (abort.signal.reason instanceof UpstreamError) throw abort.signal.reason;
    throw error;
  } finally {
    clearTimeout(idle);
    route.release();
    unfollow();
  }
}
