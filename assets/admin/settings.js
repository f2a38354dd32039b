// The settings page of the mcp-toolkit admin router: plain DOM, no build step.
// Auth: the token comes from the URL fragment (#token=..., never sent to the server by the
// browser), is kept in sessionStorage (this tab only, never a cookie) and goes out as
// "Authorization: Bearer". The event stream is read with fetch() so it can carry that header.

import { sessionsPanel } from './sessions.js';
import { overrideEditor } from './tool-override.js';
import { upstreamsPanel } from './upstreams.js';

const TOKEN_KEY = 'mcp-toolkit-admin-token';
const $ = (id) => document.getElementById(id);
const state = { tools: [], filter: '', timeline: new Map(), errorsByTool: new Map(), statistics: true };
let token = takeToken();
let stream;
/** Each boot (new token) bumps this; a follow() loop of an older boot stops. */
let generation = 0;

function takeToken() {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(match[1]));
    history.replaceState(null, '', location.pathname + location.search); // the token leaves the address bar
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

// Opening the settings URL in a tab already on this page only changes the fragment: no reload.
window.addEventListener('hashchange', () => {
  if (!/(?:^#|&)token=/.test(location.hash)) return;
  token = takeToken();
  $('alert').hidden = true;
  void boot();
});

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function api(path, { method = 'GET', body } = {}) {
  let response;
  try {
    response = await fetch(`api/${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server cannot be reached. Is it still running?');
  }
  if (response.status === 204) return undefined;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new ApiError(
      response.status,
      data.error?.code ?? 'HTTP',
      data.error?.message ?? `HTTP ${response.status}`,
    );
    if (response.status === 401) showLogin(error.message);
    throw error;
  }
  return data;
}

// ---- alerts, login, connection status

function showAlert(message) {
  $('alert-text').textContent = message;
  $('alert').hidden = false;
}
$('alert-dismiss').addEventListener('click', () => ($('alert').hidden = true));

function showLogin(reason) {
  stream?.abort();
  $('main').hidden = true;
  $('login').hidden = false;
  $('login-reason').textContent = reason;
  setConnection('down', 'Not signed in');
  $('login-token').focus();
}

$('login-form').addEventListener('submit', (event) => {
  event.preventDefault();
  token = $('login-token').value.trim();
  sessionStorage.setItem(TOKEN_KEY, token);
  $('login-token').value = '';
  void boot();
});

function setConnection(kind, text) {
  const element = $('connection');
  element.className = `connection ${kind}`;
  element.textContent = text;
}

// ---- tools

const fmtMs = (value) =>
  value === null || value === undefined ? '–' : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

function toolMatches(tool) {
  const filter = state.filter;
  if (!filter) return true;
  return [tool.name, tool.title, tool.package, tool.description].some((text) => text?.toLowerCase().includes(filter));
}

function statsText(stats) {
  if (!stats) return '';
  return `${stats.count} call${stats.count === 1 ? '' : 's'} · p50 ${fmtMs(stats.p50Ms)} · p95 ${fmtMs(stats.p95Ms)}`;
}

const errorText = (stats) =>
  (stats?.errors ? ` · ${stats.errors} error${stats.errors === 1 ? '' : 's'}` : '') +
  (stats?.aborted ? ` · ${stats.aborted} aborted` : '');

function toolRow(tool) {
  const row = document.createElement('div');
  row.className = 'tool';
  row.dataset.tool = tool.name;
  const label = document.createElement('label');
  const input = document.createElement('input');
  input.type = 'checkbox';
  input.className = 'switch';
  input.setAttribute('role', 'switch');
  input.checked = tool.enabled;
  const describedBy = `desc-${encodeURIComponent(tool.name)}`;
  input.setAttribute('aria-describedby', describedBy);
  input.addEventListener('change', () => void toggle(tool.name, input));
  const name = document.createElement('span');
  name.className = 'tool-name';
  name.textContent = tool.name; // the switch's accessible name is exactly the tool's name
  label.append(input, name);
  const stats = document.createElement('span');
  stats.className = 'stats';
  const counts = document.createElement('span');
  counts.textContent = statsText(tool.stats);
  const errors = document.createElement('span');
  errors.className = 'errors';
  errors.textContent = errorText(tool.stats);
  stats.append(counts, errors);
  const description = document.createElement('p');
  description.className = 'description';
  description.id = describedBy;
  const shown = { ...tool, ...tool.override };
  description.textContent = [shown.title, shown.description].filter(Boolean).join(' — ') || 'No description.';
  const parts = [label, stats, description];
  if (tool.available === false) {
    row.classList.add('unavailable');
    const note = document.createElement('p');
    note.className = 'unavailable-note muted';
    note.textContent = 'Its upstream is not connected: the switch is saved and applies when it returns.';
    parts.push(note);
  }
  if (tool.exposedName && tool.exposedName !== tool.name) {
    const renamed = document.createElement('p');
    renamed.className = 'renamed';
    renamed.textContent = `Clients see it as ${tool.exposedName}`;
    parts.push(renamed);
  }
  parts.push(overrideEditor(tool, { api, showAlert, onSaved: onOverrideSaved }));
  row.append(...parts);
  return row;
}

function onOverrideSaved(saved) {
  state.tools = state.tools.map((tool) => (tool.name === saved.name ? saved : tool));
  renderTools();
}

/** What decides whether the tool rows are rebuilt: inventory, packages and overrides. */
const inventoryKey = (tools) =>
  tools.map((tool) => `${tool.package}/${tool.name}/${tool.available}/${JSON.stringify(tool.override)}`).join('\n');

function renderTools() {
  const container = $('tool-groups');
  const focused = document.activeElement?.closest?.('.tool')?.dataset.tool;
  container.replaceChildren();
  const groups = new Map();
  for (const tool of state.tools.filter(toolMatches)) {
    const key = tool.package ?? '';
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(tool);
  }
  const keys = [...groups.keys()].sort((a, b) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b)));
  for (const key of keys) {
    const fieldset = document.createElement('fieldset');
    const legend = document.createElement('legend');
    const upstreamState = key && upstreams.stateOf(key);
    legend.textContent = (key || 'Other tools') + (upstreamState ? ` (upstream, ${upstreamState})` : '');
    fieldset.append(legend, ...groups.get(key).map(toolRow));
    container.append(fieldset);
  }
  $('tools-empty').hidden = keys.length > 0 || state.tools.length === 0;
  const enabled = state.tools.filter((tool) => tool.enabled).length;
  $('tools-summary').textContent = `${enabled} of ${state.tools.length} enabled`;
  if (focused) container.querySelector(`[data-tool="${CSS.escape(focused)}"] input`)?.focus();
}

function setSwitch(name, enabled) {
  const tool = state.tools.find((entry) => entry.name === name);
  if (tool) tool.enabled = enabled;
  const input = document.querySelector(`[data-tool="${CSS.escape(name)}"] input`);
  if (input && input.getAttribute('aria-busy') !== 'true') input.checked = enabled;
  const count = state.tools.filter((entry) => entry.enabled).length;
  $('tools-summary').textContent = `${count} of ${state.tools.length} enabled`;
}

async function toggle(name, input) {
  const enabled = input.checked;
  input.setAttribute('aria-busy', 'true');
  try {
    const { tool } = await api(`tools/${encodeURIComponent(name)}`, { method: 'PATCH', body: { enabled } });
    input.removeAttribute('aria-busy');
    setSwitch(name, tool.enabled);
  } catch (error) {
    input.removeAttribute('aria-busy');
    input.checked = !enabled;
    if (error.status !== 401) showAlert(`Could not ${enabled ? 'enable' : 'disable'} ${name}: ${error.message}`);
  }
}

$('filter').addEventListener('input', (event) => {
  state.filter = event.target.value.trim().toLowerCase();
  renderTools();
});

async function loadTools() {
  const previous = inventoryKey(state.tools);
  state.tools = (await api('tools')).tools;
  if (previous !== inventoryKey(state.tools)) return renderTools();
  // Same inventory: update rows in place, so focus and scroll stay where the person left them.
  for (const tool of state.tools) {
    const row = document.querySelector(`[data-tool="${CSS.escape(tool.name)}"]`);
    if (!row) continue;
    row.querySelector('.stats span').textContent = statsText(tool.stats);
    row.querySelector('.stats .errors').textContent = errorText(tool.stats);
    setSwitch(tool.name, tool.enabled);
  }
}

// ---- sessions (assets/sessions.js): this replica's, and every other replica's on a cluster

const sessions = sessionsPanel({ api, showAlert, reportLoadError: (error) => reportLoadError(error) });
const loadSessions = () => sessions.load();

// ---- upstreams (assets/upstreams.js): state and tool count of each upstream server

const upstreams = upstreamsPanel({ api, onChange: () => renderTools() });
const loadUpstreams = () => upstreams.load();

// ---- documents

const fmtTime = (at) => (at ? new Date(at).toLocaleTimeString() : 'never');

async function loadDocuments() {
  const data = await api('documents');
  $('documents-panel').hidden = !data.served; // a gateway without --folder serves none
  $('documents-summary').textContent =
    `${data.count} document${data.count === 1 ? '' : 's'} · last change: ${fmtTime(data.lastChangeAt)}`;
  $('folders').replaceChildren(
    ...data.folders.map((folder) => {
      const item = document.createElement('li');
      item.textContent = `${folder.root} — ${folder.count} files, last change ${fmtTime(folder.lastChangeAt)}`;
      return item;
    }),
  );
  const errors = data.converterErrors.recent;
  $('converter-errors').replaceChildren(
    ...(errors.length === 0
      ? [Object.assign(document.createElement('li'), { textContent: 'None.', className: 'muted' })]
      : errors.map((record) => {
          const item = document.createElement('li');
          item.textContent = `${fmtTime(record.at)} ${record.uri}: ${record.message}`;
          return item;
        })),
  );
}

// ---- charts (inline SVG)

const SVG = 'http://www.w3.org/2000/svg';
const svgNode = (name, attributes, text) => {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
};

function recordCalls(calls) {
  for (const call of calls) {
    const second = Math.floor(call.at / 1000) * 1000;
    const point = state.timeline.get(second) ?? { calls: 0, errors: 0 };
    point.calls += 1;
    if (call.isError) {
      point.errors += 1;
      state.errorsByTool.set(call.name, (state.errorsByTool.get(call.name) ?? 0) + 1);
    }
    state.timeline.set(second, point);
  }
}

function renderCharts() {
  const now = Math.floor(Date.now() / 1000) * 1000;
  const points = [];
  for (let t = now - 59_000; t <= now; t += 1000) points.push(state.timeline.get(t) ?? { calls: 0, errors: 0 });
  for (const t of state.timeline.keys()) if (t < now - 59_000) state.timeline.delete(t);
  const max = Math.max(1, ...points.map((point) => point.calls));
  const toXY = (value, index) => `${(index / 59) * 290 + 5},${95 - (value / max) * 80}`;
  const calls = $('chart-calls');
  calls.replaceChildren(
    calls.querySelector('title'),
    svgNode('text', { x: 5, y: 10 }, `max ${max}/s · now ${points[59].calls}/s`),
    svgNode('polyline', { class: 'line', points: points.map((point, i) => toXY(point.calls, i)).join(' ') }),
    svgNode('polyline', { class: 'err-line', points: points.map((point, i) => toXY(point.errors, i)).join(' ') }),
  );
  const errors = [...state.errorsByTool.entries()]
    .filter(([, count]) => count > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6);
  const chart = $('chart-errors');
  const most = Math.max(1, ...errors.map(([, count]) => count));
  chart.replaceChildren(
    chart.querySelector('title'),
    ...(errors.length === 0
      ? [svgNode('text', { x: 5, y: 50 }, 'No errors.')]
      : errors.flatMap(([name, count], index) => [
          svgNode('text', { x: 5, y: 14 + index * 15 }, name.length > 22 ? `${name.slice(0, 21)}…` : name),
          svgNode('rect', {
            class: 'bar',
            x: 110,
            y: 6 + index * 15,
            height: 10,
            width: Math.max(2, (count / most) * 160),
          }),
          svgNode('text', { x: 275, y: 14 + index * 15 }, String(count)),
        ])),
  );
}

async function loadStats() {
  const data = await api('stats');
  state.statistics = data.statistics;
  state.timeline = new Map(data.timeline.map((point) => [point.t, { calls: point.calls, errors: point.errors }]));
  state.errorsByTool = new Map(Object.entries(data.tools).map(([name, stats]) => [name, stats?.errors ?? 0]));
  renderCharts();
}

// ---- live updates: Server-Sent Events read through fetch (EventSource cannot send the token header)

const debounced = (fn, ms) => {
  let timer;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(() => fn().catch(reportLoadError), ms);
  };
};
const refreshTools = debounced(loadTools, 150);
const refreshSessions = debounced(loadSessions, 100);
const refreshDocuments = debounced(loadDocuments, 300);
const refreshUpstreams = debounced(loadUpstreams, 150);
const refreshStatsText = debounced(loadTools, 1000);

function onEvent(type, data) {
  switch (type) {
    case 'toolToggled':
      setSwitch(data.name, data.enabled);
      break;
    case 'toolRegistered':
    case 'toolRemoved': // also an upstream's tools arriving or leaving: its tool count changed
      refreshTools();
      refreshUpstreams();
      break;
    case 'toolOverridden': // renamed or re-described in another tab, through the API or on another replica
      refreshTools();
      break;
    case 'upstreamStatus':
      upstreams.update(data);
      break;
    case 'sessionCreated':
    case 'sessionClosed':
      refreshSessions();
      break;
    case 'documentChanged':
    case 'documentReadFailed':
      refreshDocuments();
      break;
    case 'toolCallsFinished':
      recordCalls(data.calls);
      refreshStatsText();
      break;
    case 'clusterStatus': // Redis lost or back (memberships that report it)
      refreshSessions();
      break;
    case 'toolStateSaveFailed':
      showAlert(`The tool state could not be saved: ${data.message}`);
      break;
  }
}

async function follow(own) {
  let delay = 1000;
  while (own === generation) {
    stream = new AbortController();
    try {
      const response = await fetch('api/events', {
        headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' },
        signal: stream.signal,
      });
      if (response.status === 401) {
        const data = await response.json().catch(() => ({}));
        return showLogin(data.error?.message ?? 'The admin token is wrong.');
      }
      if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
      setConnection('live', 'Live');
      delay = 1000;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let type = 'message';
          let data = '';
          for (const line of frame.split('\n')) {
            if (line.startsWith('event: ')) type = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data) onEvent(type, JSON.parse(data));
        }
      }
    } catch (error) {
      if (error.name === 'AbortError') return;
    }
    if (own !== generation) return;
    setConnection('down', 'Disconnected — retrying…');
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 15_000);
    await Promise.all([loadTools(), loadSessions(), loadUpstreams(), loadDocuments(), loadStats()]).catch(() => {});
  }
}

function reportLoadError(error) {
  if (error.status !== 401) showAlert(error.message);
}

async function boot() {
  const own = ++generation;
  stream?.abort(); // the stream of the previous token
  if (!token)
    return showLogin('Open the settings URL the server printed (it ends in #token=...), or paste the token here.');
  setConnection('', 'Connecting…');
  try {
    await loadTools();
  } catch (error) {
    if (error.status !== 401) showLogin(error.message);
    return;
  }
  if (own !== generation) return;
  $('login').hidden = true;
  $('main').hidden = false;
  await Promise.all([loadSessions(), loadUpstreams(), loadDocuments(), loadStats()]).catch(reportLoadError);
  if (own === generation) void follow(own);
}

setInterval(() => {
  renderCharts();
  sessions.tick();
  upstreams.tick();
}, 1000);
// Other replicas' sessions come and go without an event here: list them again every few seconds.
setInterval(() => {
  if (sessions.isCluster() && !$('main').hidden && document.visibilityState === 'visible') {
    loadSessions().catch(() => {});
  }
}, 3000);
void boot();
