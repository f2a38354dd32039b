import type { Logger } from '../logger.js';
import type { ChangeBus, ClusterChange } from '../state/change-bus.js';
import type { RedisLink } from './redis-link.js';
import { nodeCrypto } from '../lazy-module.js';

const TYPES = new Set(['resourceUpdated', 'resourcesChanged', 'promptsChanged']);

function parse(text: string): { by: string; change: ClusterChange } | undefined {
  try {
    const value = JSON.parse(text) as { by?: unknown; type?: unknown; uri?: unknown };
    if (typeof value.by !== 'string' || !TYPES.has(value.type as string)) return undefined;
    if (value.type === 'resourceUpdated' && typeof value.uri !== 'string') return undefined;
    const change = (
      value.type === 'resourceUpdated' ? { type: value.type, uri: value.uri } : { type: value.type }
    ) as ClusterChange;
    return { by: value.by, change };
  } catch {
    return undefined;
  }
}

/**
 * A {@link ChangeBus} on Redis pub/sub: one channel `<prefix>:changes`, JSON messages
 * `{by, type, uri?}`. A replica's own messages come back to it and are dropped by `by`.
 * Publishing is fire-and-forget; while Redis is down a change reaches local clients only.
 */
export class RedisChangeBus implements ChangeBus {
  readonly #channel: string;
  readonly #instance = nodeCrypto().randomUUID();
  readonly #listeners = new Set<(change: ClusterChange) => void>();

  constructor(
    private readonly link: RedisLink,
    prefix: string,
    private readonly logger: Logger,
  ) {
    this.#channel = `${prefix}:changes`;
  }

  /** Subscribes the channel; resolves at once while Redis is down (subscribed on reconnect). */
  async open(): Promise<void> {
    await this.link.subscribe(this.#channel, (text) => this.#received(text));
  }

  publish(change: ClusterChange): void {
    if (!this.link.isReady) return;
    this.link.command
      .publish(this.#channel, JSON.stringify({ by: this.#instance, ...change }))
      .catch((error: unknown) => this.logger.debug({ err: error }, 'publishing a change to Redis failed'));
  }

  subscribe(listener: (change: ClusterChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #received(text: string): void {
    const message = parse(text);
    if (!message || message.by === this.#instance) return;
    for (const listener of [...this.#listeners]) {
      try {
        listener(message.change);
      } catch (error) {
        this.logger.error({ err: error }, 'a cluster change listener threw');
      }
    }
  }
}
