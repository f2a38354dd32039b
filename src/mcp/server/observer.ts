import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ServerEvents } from './server-events.js';

/** What an observer hears when a `tools/call` finishes (the llm-chat-mcp `ToolCallInfo` fields). */
export interface ToolCallInfo {
  /** The tool's name. */
  name: string;
  /** The validated arguments. */
  args: Record<string, unknown>;
  /** The `CallToolResult` sent to the client, also a tool error (`isError: true`); absent when `error` is set. */
  result?: CallToolResult;
  /** The message of what the tool (or the protocol layer) threw, when it threw. */
  error?: string;
  /** Wall time of the call in milliseconds. */
  durationMs: number;
}

/** What an observer hears when a client's `resources/read` finishes (the llm-chat-mcp `ResourceReadInfo` fields). */
export interface ResourceReadInfo {
  /** The URI the client asked for. */
  uri: string;
  /** False when the read failed. */
  ok: boolean;
  /** Wall time of the read in milliseconds. */
  durationMs: number;
  /** The failure's message, when `ok` is false. */
  error?: string;
}

/**
 * Monitoring callbacks (`BaseMcpServerOptions.observer`), the same shape as llm-chat-mcp's
 * `McpServerObserver`, so an existing observer works as it is. Both methods are optional here.
 * Fed from `server.events` (`toolCallFinished`, `resourceRead`); a throwing callback is logged
 * and never breaks a request. A 2026-07-28 call that ends its round asking the client for
 * input is not reported (its retry is).
 */
export interface McpServerObserver {
  onToolCall?(info: ToolCallInfo): void;
  onResourceRead?(info: ResourceReadInfo): void;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Subscribes `observer` to the server's events; returns the function that unsubscribes it. */
export function attachObserver(events: ServerEvents, observer: McpServerObserver): () => void {
  const onToolCall: Parameters<typeof events.on<'toolCallFinished'>>[1] = (call) => {
    if (call.inputRequired) return;
    observer.onToolCall?.({
      name: call.name,
      args: call.args,
      durationMs: call.durationMs,
      ...(call.error !== undefined ? { error: message(call.error) } : { result: call.result }),
    });
  };
  const onResourceRead: Parameters<typeof events.on<'resourceRead'>>[1] = (read) => {
    observer.onResourceRead?.({
      uri: read.uri,
      ok: read.ok,
      durationMs: read.durationMs,
      ...(read.error !== undefined && { error: message(read.error) }),
    });
  };
  events.on('toolCallFinished', onToolCall);
  events.on('resourceRead', onResourceRead);
  return () => {
    events.off('toolCallFinished', onToolCall);
    events.off('resourceRead', onResourceRead);
  };
}
