/**
 * An llm-chat app served over MCP: the app subclasses HttpMcpServer, registers its llm-chat
 * ToolPackage as it is, exposes its help folder and its notebook as resources, lets a settings
 * screen switch tools on and off, and saves its data in onStop().
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import express from 'express';
import { HttpMcpServer, type HttpMcpServerOptions } from 'mcp-toolkit';
import type { McpServerObserver } from 'mcp-toolkit/llm-chat';
import { Notebook, NotebookPackage, type Note } from './tools.js';

/** Options of {@link NotesApp}: the HTTP options plus where the app's files are. */
export interface NotesAppOptions extends HttpMcpServerOptions {
  /** Folder of help documents (Markdown) exposed as resources. */
  docsDir: string;
  /** JSON file holding the notes and the disabled tools; read at construction, written by `onStop()`. */
  dataFile?: string;
}

/** What the app saves between runs. */
interface SavedData {
  notes: Note[];
  disabledTools: string[];
}

/** Counts what clients did, through the observer option (the llm-chat-mcp `McpServerObserver` shape). */
export class UsageStats implements McpServerObserver {
  toolCalls = 0;
  failedToolCalls = 0;
  resourceReads = 0;

  onToolCall(info: { result?: { isError?: boolean }; error?: string }): void {
    this.toolCalls += 1;
    if (info.error !== undefined || info.result?.isError) this.failedToolCalls += 1;
  }

  onResourceRead(): void {
    this.resourceReads += 1;
  }
}

// #region app
export class NotesApp extends HttpMcpServer {
  readonly notebook: Notebook;
  readonly stats: UsageStats;
  readonly #dataFile?: string;

  constructor({ docsDir, dataFile, ...http }: NotesAppOptions) {
    const stats = new UsageStats();
    super({ name: 'notes-app', version: '1.0.0', instructions: 'A personal notebook.' }, { ...http, observer: stats });
    this.stats = stats;
    this.#dataFile = dataFile;
    const saved = loadData(dataFile);
    this.notebook = new Notebook();
    for (const note of saved.notes) this.notebook.notes.set(note.title, note);

    // The llm-chat package as it is: its tutorial() joins the server's instructions.
    this.registerTool(new NotebookPackage(this.notebook));
    this.registerFolder({ path: docsDir, extensions: ['md'] });
    this.registerContentDocument({
      name: 'notebook',
      title: 'All notes',
      content: () =>
        this.notebook
          .toJSON()
          .map((note) => `# ${note.title}\n\n${note.text}`)
          .join('\n\n'),
    });
    // Deleting is off until the user allows it (or as saved last time).
    this.setDisabledTools(saved.disabledTools);
    this.#mountSettingsRoutes();
  }

  /** What the settings screen shows: one switch per tool. */
  settingsRows(): Array<{ name: string; description?: string; enabled: boolean }> {
    return this.getToolStates().map(({ tool, enabled }) => ({
      name: tool.name,
      description: tool.description,
      enabled,
    }));
  }

  /** What the settings screen calls when the user flips a switch; clients see the change at once. */
  setToolEnabled(name: string, enabled: boolean): void {
    if (enabled) this.enableTool(name);
    else this.disableTool(name);
  }

  /** Saves the notebook and the switches before the transport closes. */
  protected override async onStop(): Promise<void> {
    if (!this.#dataFile) return;
    const disabledTools = this.settingsRows()
      .filter((row) => !row.enabled)
      .map((row) => row.name);
    const data: SavedData = { notes: this.notebook.toJSON(), disabledTools };
    await writeFile(this.#dataFile, JSON.stringify(data, null, 2));
  }

  /** The settings screen's backend: `GET /settings/tools`, `PUT /settings/tools/:name` with `{ "enabled": bool }`. */
  #mountSettingsRoutes(): void {
    this.app.get('/settings/tools', (_req, res) => void res.json(this.settingsRows()));
    this.app.put('/settings/tools/:name', express.json(), (req, res) => {
      const enabled = (req.body as { enabled?: unknown } | undefined)?.enabled;
      if (typeof enabled !== 'boolean') return void res.status(400).json({ error: 'Send { "enabled": true|false }.' });
      if (!this.settingsRows().some((row) => row.name === req.params.name)) return void res.sendStatus(404);
      this.setToolEnabled(req.params.name, enabled);
      res.json(this.settingsRows());
    });
  }
}
// #endregion app

function loadData(file: string | undefined): SavedData {
  if (!file || !existsSync(file)) return { notes: [], disabledTools: ['delete_note'] };
  return JSON.parse(readFileSync(file, 'utf8')) as SavedData;
}
