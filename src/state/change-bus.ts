/**
 * A change that clients of every replica must hear about, not only the clients of the replica
 * where the app made it. Tool enable/disable travels through the `ToolStateStore` instead.
 */
export type ClusterChange =
  /** `notifications/resources/updated` for subscribers of `uri` (MCP "Resources / Subscriptions"). */
  | { readonly type: 'resourceUpdated'; readonly uri: string }
  /** `notifications/resources/list_changed`. */
  | { readonly type: 'resourcesChanged' }
  /** `notifications/prompts/list_changed`. */
  | { readonly type: 'promptsChanged' };

/**
 * Carries {@link ClusterChange}s between the processes serving one MCP endpoint. Each process
 * publishes the changes its app raises and fans out, to its own clients, the changes the others
 * publish, so every client is told once whatever process the change started on.
 *
 * Delivery is at most once per change and process. A change raised while the bus is
 * disconnected reaches the local clients at once; a bus that can, holds it and publishes it when
 * it reconnects (the Redis bus does), so other processes' clients are told late rather than never.
 */
export interface ChangeBus {
  /** Sends `change` to the other processes. Never throws and never waits for the network. */
  publish(change: ClusterChange): void;
  /** Calls `listener` with every change published by *another* process. Returns an unsubscribe function. */
  subscribe(listener: (change: ClusterChange) => void): () => void;
}
