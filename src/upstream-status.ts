// An upstream server's state as `server.upstreams`, the readiness route, the server's events and the
// settings page show it (shared by composition/ and mcp/server/, hence top level).

/** Where an upstream is in its life: `connecting` (first attempt or a retry running), `connected`, `retrying` (waiting for the next attempt), `closed`. */
export type UpstreamState = 'connecting' | 'connected' | 'retrying' | 'closed';

/** What an upstream shows of itself (no environment, headers or arguments: see `describeUpstream`). */
export interface UpstreamStatus {
  /** The upstream's name (its tools' package). */
  readonly name: string;
  /** The prefix of its tool names. */
  readonly namespace: string;
  /** `stdio: <command file> (+N arguments)` or the URL without credentials, query or fragment. */
  readonly target: string;
  readonly state: UpstreamState;
  /** The protocol era it speaks while connected. */
  readonly era?: 'legacy' | 'modern';
  /** Tools of it in this server's registry now (0 unless connected). */
  readonly tools: number;
  /**
   * Its tools' names here (namespaced) as it last listed them, kept while it is down so that they can
   * still be shown and toggled (the disabled set is by name); empty before it first connects and once closed.
   */
  readonly knownTools: readonly string[];
  /**
   * Its tools left out because their name here is already registered: by a local tool (`heldBy: null`)
   * or another upstream or mount (`heldBy`: its name), e.g. upstream `a`'s tool `b_c` and upstream `a_b`'s
   * tool `c` both make `a_b_c`. Each is logged as an error; empty when none.
   */
  readonly nameConflicts: readonly { readonly name: string; readonly heldBy: string | null }[];
  /** Its prompts, resources and resource templates in this server now (0 unless connected). */
  readonly prompts: number;
  readonly resources: number;
  readonly resourceTemplates: number;
  /** Connection attempts that failed since it was last connected. */
  readonly failures: number;
  /** Why the last attempt or connection ended, for a person (no secrets). */
  readonly lastError?: string;
  /** When the next attempt starts (epoch ms), while `retrying`. */
  readonly retryAt?: number;
  /** The child's process id while connected (stdio upstreams). */
  readonly pid?: number;
}
