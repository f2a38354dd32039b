// The Sessions panel of the settings page: this replica's live legacy sessions (with Close) and,
// when the server is one replica of a cluster, every other replica's (listed through Redis), with
// the cluster's state: Redis connected, or unreachable (then this replica's sessions only).

const $ = (id) => document.getElementById(id);

const fmtAge = (ms) => {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
};

const CELLS = ['Session', 'Replica', 'Client', 'Era', 'Age', 'Idle'];

/**
 * The panel, fed by the page's `api(path, init)` (which throws errors with `status` and `message`).
 * Returns `load()` (list again), `tick()` (advance ages in place) and `isCluster()`.
 */
export function sessionsPanel({ api, showAlert, reportLoadError }) {
  let sessions = [];
  /** `none` (one process), `ok` (every replica's sessions listed) or `down` (Redis unreachable). */
  let cluster = 'none';

  function sessionRow(session) {
    const row = document.createElement('tr');
    const client = session.remote
      ? '–'
      : session.client
        ? `${session.client.name} ${session.client.version}`
        : 'unknown';
    const cells = [session.id, session.replicaId ?? '', client, session.era, '', ''].map((text, index) => {
      const cell = document.createElement('td');
      cell.className = ['mono', 'replica', '', '', 'age', 'idle'][index];
      cell.dataset.label = CELLS[index]; // shown before the value when rows stack (phones)
      cell.textContent = text;
      return cell;
    });
    const action = document.createElement('td');
    action.className = 'action';
    if (session.remote) {
      action.classList.add('muted');
      action.textContent = `close it on ${session.replicaId}`;
    } else {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Close';
      button.setAttribute('aria-label', `Close session ${session.id}`);
      button.addEventListener('click', () => void closeSession(session.id, button));
      action.append(button);
    }
    row.append(...cells, action);
    row.session = session;
    return row;
  }

  function render() {
    $('sessions')
      .querySelector('tbody')
      .replaceChildren(...sessions.map(sessionRow));
    $('sessions').classList.toggle('local-only', cluster === 'none');
    tick();
    $('sessions-empty').hidden = sessions.length > 0;
    $('sessions').hidden = sessions.length === 0;
  }

  /** Age and idle time advance every second, in place (buttons keep their focus). */
  function tick() {
    const now = Date.now();
    for (const row of $('sessions').querySelectorAll('tbody tr')) {
      const session = row.session;
      row.querySelector('.age').textContent = fmtAge(now - session.createdAt);
      row.querySelector('.idle').textContent = session.remote
        ? '–'
        : session.openRequests > 0
          ? 'active'
          : fmtAge(now - session.lastActivityAt);
    }
  }

  async function closeSession(id, button) {
    button.disabled = true;
    try {
      await api(`sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
    } catch (error) {
      if (error.status !== 401) showAlert(`Could not close session ${id}: ${error.message}`);
    }
    await load().catch(reportLoadError);
  }

  /** Every replica's sessions when the server is one replica of a cluster; this one's otherwise. */
  async function clusterSessions() {
    try {
      return await api('cluster/sessions');
    } catch (error) {
      if (error.status === 404) return { supported: false }; // an older server: no cluster route
      if (error.status === 503) return { supported: true, unavailable: error.message };
      throw error;
    }
  }

  /** What waits for Redis on this replica (from `api/cluster` when the membership reports a status). */
  function waiting(status) {
    const parts = [];
    const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
    if (status?.unconfirmedChanges) parts.push(`${plural(status.unconfirmedChanges, 'switch change')} made here`);
    if (status?.heldChanges) parts.push(plural(status.heldChanges, 'notification'));
    return parts.length ? ` Waiting for Redis: ${parts.join(', ')}.` : '';
  }

  function showClusterStatus(listing, status, others) {
    const element = $('cluster-status');
    const scope = $('sessions-scope');
    element.hidden = !listing.supported;
    scope.hidden = !listing.supported;
    if (!listing.supported) return;
    const me = listing.replicaId ? `replica ${listing.replicaId}` : 'this replica';
    if (listing.unavailable || status?.reachable === false) {
      const why = status
        ? `${status.url}, since ${new Date(status.since).toLocaleTimeString()}`
        : (listing.unavailable ?? 'no answer');
      element.className = 'cluster-status down';
      element.textContent =
        `Cluster: Redis cannot be reached (${why}). This page shows ${me} only; ` +
        'switches changed here apply here now and reach the other replicas when Redis answers.' +
        waiting(status);
      scope.textContent = `Only ${me}'s sessions: the other replicas cannot be listed while Redis is down.`;
    } else {
      element.className = 'cluster-status live';
      element.textContent = `Cluster: ${me}, Redis connected.${waiting(status)}`;
      scope.textContent =
        `Sessions of every replica (${others} on other replicas). ` +
        'A session is closed on its own replica: open that replica’s settings page.';
    }
  }

  async function load() {
    const [local, listing, about] = await Promise.all([
      api('sessions'),
      clusterSessions(),
      api('cluster').catch(() => ({})), // older servers have no such route
    ]);
    const mine = listing.replicaId ?? about.replicaId;
    const known = new Set(local.sessions.map((session) => session.id));
    const others = (listing.supported && !listing.unavailable ? listing.sessions : [])
      .filter((entry) => !known.has(entry.sessionId) && entry.replicaId !== mine)
      .map((entry) => ({
        id: entry.sessionId,
        replicaId: entry.replicaId,
        era: 'legacy',
        createdAt: entry.createdAt,
        remote: true,
      }));
    cluster = !listing.supported ? 'none' : listing.unavailable ? 'down' : 'ok';
    sessions = [...local.sessions.map((session) => ({ ...session, replicaId: mine })), ...others];
    showClusterStatus({ ...listing, replicaId: mine }, about.status, others.length);
    render();
  }

  return { load, tick, isCluster: () => cluster !== 'none' };
}
