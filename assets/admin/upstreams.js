// The Upstreams panel of the settings page: each upstream server (addUpstream / the gateway's
// config) with its state (connected, connecting, retrying, closed), era and tool count, live from
// the `upstreamStatus` events. The API never sends an upstream's environment, headers or arguments.

const $ = (id) => document.getElementById(id);

const fmtIn = (at) => {
  const s = Math.max(0, Math.round((at - Date.now()) / 1000));
  return s === 0 ? 'now' : `in ${s} s`;
};

function detailText(upstream) {
  const parts = [upstream.target];
  if (upstream.era) parts.push(upstream.era === 'modern' ? '2026-07-28' : 'legacy era');
  if (upstream.state === 'retrying' && upstream.retryAt) parts.push(`next attempt ${fmtIn(upstream.retryAt)}`);
  if (upstream.failures > 0) parts.push(`${upstream.failures} failed attempt${upstream.failures === 1 ? '' : 's'}`);
  if (upstream.state !== 'connected' && upstream.lastError) parts.push(upstream.lastError);
  const conflicts = upstream.nameConflicts ?? [];
  if (conflicts.length > 0) {
    const named = conflicts.map((c) => `${c.name} (held by ${c.heldBy === null ? 'a local tool' : c.heldBy})`);
    parts.push(`left out, name already taken: ${named.join(', ')}`);
  }
  return parts.join(' · ');
}

/**
 * The panel, fed by the page's `api(path)`. Returns `load()` (list again), `update(status)` (one
 * `upstreamStatus` event), `tick()` (advance retry countdowns) and `stateOf(name)` (for the tool
 * groups' legends: an upstream's tools are its package).
 */
export function upstreamsPanel({ api, onChange }) {
  let upstreams = [];

  function item(upstream) {
    const li = document.createElement('li');
    li.className = 'upstream';
    li.dataset.upstream = upstream.name;
    const name = document.createElement('strong');
    name.textContent = upstream.name;
    const badge = document.createElement('span');
    badge.className = `upstream-state ${upstream.state}`;
    badge.textContent = upstream.state;
    const tools = document.createElement('span');
    tools.className = 'upstream-tools';
    tools.textContent = `${upstream.tools} tool${upstream.tools === 1 ? '' : 's'}`;
    const detail = document.createElement('p');
    detail.className = 'upstream-detail muted';
    detail.textContent = detailText(upstream);
    li.append(name, ' ', badge, ' ', tools, detail);
    return li;
  }

  /** Redraws the list; `onChange()` (the tool groups' legends) only when a state changed. */
  function render(before) {
    $('upstreams-panel').hidden = upstreams.length === 0;
    $('upstreams').replaceChildren(...upstreams.map(item));
    if (before !== statesKey()) onChange();
  }
  const statesKey = () => upstreams.map((upstream) => `${upstream.name}:${upstream.state}`).join('\n');

  return {
    async load() {
      const before = statesKey();
      upstreams = (await api('upstreams')).upstreams;
      render(before);
    },
    update(status) {
      const before = statesKey();
      const at = upstreams.findIndex((upstream) => upstream.name === status.name);
      if (at >= 0) upstreams[at] = status;
      else upstreams.push(status);
      render(before);
    },
    tick() {
      for (const upstream of upstreams) {
        if (upstream.state !== 'retrying') continue;
        const detail = document.querySelector(`[data-upstream="${CSS.escape(upstream.name)}"] .upstream-detail`);
        if (detail) detail.textContent = detailText(upstream);
      }
    },
    stateOf(name) {
      return upstreams.find((upstream) => upstream.name === name)?.state;
    },
  };
}
