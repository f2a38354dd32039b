import type { Logger } from '../../logger.js';
import type { ClusterChange } from '../../state/change-bus.js';
import type { ClusterMembership } from '../../state/cluster-membership.js';
import type { LiveViews } from './live-views.js';
import type { ServerEvents } from './server-events.js';

/** The parts of a server the cluster link connects. */
export interface ClusterLinkTargets {
  readonly views: LiveViews;
  readonly events: ServerEvents;
  /** Change sources whose list changes are announced cluster-wide (prompts, resources). */
  readonly prompts: { onChange(listener: () => void): () => void };
  readonly resources: { onChange(listener: () => void): () => void };
  /** Registrations before `start()` are boot-time code run by every replica: not announced. */
  readonly isRunning: () => boolean;
  readonly logger: Logger;
}

/**
 * Connects one server to its cluster: publishes the prompt/resource list changes and the
 * resource updates its app raises, fans out those of the other replicas to its own views and
 * listen streams, and records its legacy HTTP sessions in the cluster-wide listing. Document
 * watcher events stay local (each replica watches its own disk). Tool enable/disable is not
 * here: it travels through the membership's `toolState` store.
 */
export class ClusterLink {
  readonly #removers: Array<() => void> = [];

  constructor(
    readonly membership: ClusterMembership,
    private readonly targets: ClusterLinkTargets,
  ) {
    const { events } = targets;
    const bus = membership.changes;
    this.#removers.push(
      bus.subscribe((change) => this.#apply(change)),
      targets.prompts.onChange(() => this.#publish({ type: 'promptsChanged' })),
      targets.resources.onChange(() => this.#publish({ type: 'resourcesChanged' })),
    );
    const created = ({ sessionId, transport }: { sessionId?: string; transport: string }) => {
      if (sessionId && transport === 'http') membership.sessions.add(sessionId, Date.now());
    };
    const closed = ({ sessionId, transport }: { sessionId?: string; transport: string }) => {
      if (sessionId && transport === 'http') membership.sessions.remove(sessionId);
    };
    events.on('sessionCreated', created).on('sessionClosed', closed);
    this.#removers.push(() => events.off('sessionCreated', created).off('sessionClosed', closed));
  }

  /** The app called `sendResourceUpdated(uri)`: the other replicas tell their subscribers too. */
  resourceUpdated(uri: string): void {
    this.#publish({ type: 'resourceUpdated', uri });
  }

  /** Stops following the cluster and leaves it (closes the membership). */
  async close(): Promise<void> {
    for (const remove of this.#removers.splice(0)) remove();
    await this.membership.close();
  }

  #publish(change: ClusterChange): void {
    if (this.targets.isRunning()) this.membership.changes.publish(change);
  }

  #apply(change: ClusterChange): void {
    const { views } = this.targets;
    if (change.type === 'resourceUpdated') views.resourceUpdated(change.uri);
    else if (change.type === 'resourcesChanged') views.resourcesChanged();
    else views.promptsChanged();
  }
}
