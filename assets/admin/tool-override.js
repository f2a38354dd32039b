// The per-tool override editor of the settings page: a disclosure with the name clients see,
// title and description (empty = the tool's own), saved with PUT /api/tools/:name/override and
// cleared with DELETE. The server validates (SEP-986 name rules, no clash with another tool).

const FIELDS = [
  ['name', 'Name clients see', 'input'],
  ['title', 'Title', 'input'],
  ['description', 'Description', 'textarea'],
];

/** A `<details>` editing `tool`'s override; `onSaved(tool)` gets the tool row the API answered. */
export function overrideEditor(tool, { api, showAlert, onSaved }) {
  const details = document.createElement('details');
  details.className = 'override';
  const summary = document.createElement('summary');
  summary.textContent = tool.override ? `Edit (shown as ${tool.exposedName})` : 'Edit name and description';
  const form = document.createElement('form');
  const inputs = {};
  for (const [key, text, tag] of FIELDS) {
    const label = document.createElement('label');
    label.textContent = text;
    const input = document.createElement(tag);
    input.name = key;
    input.value = tool.override?.[key] ?? '';
    input.placeholder = (key === 'name' ? tool.name : tool[key]) ?? '';
    label.append(input);
    form.append(label);
    inputs[key] = input;
  }
  const save = document.createElement('button');
  save.type = 'submit';
  save.textContent = 'Save';
  const reset = document.createElement('button');
  reset.type = 'button';
  reset.textContent = 'Reset';
  const status = document.createElement('span');
  status.className = 'override-status';
  status.setAttribute('role', 'status');
  form.append(save, reset, status);
  const send = async (method, body) => {
    status.textContent = 'Saving…';
    try {
      const answer = await api(`tools/${encodeURIComponent(tool.name)}/override`, { method, body });
      status.textContent = 'Saved';
      onSaved(answer.tool);
    } catch (error) {
      status.textContent = '';
      if (error.status !== 401) showAlert(`Could not change ${tool.name}: ${error.message}`);
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void send('PUT', Object.fromEntries(FIELDS.map(([key]) => [key, inputs[key].value.trim() || null])));
  });
  reset.addEventListener('click', () => void send('DELETE'));
  details.append(summary, form);
  return details;
}
