/**
 * The app's tools, written with @johannes.latzel/llm-chat exactly as an llm-chat app writes them
 * (the same classes work in the app's own chat loop and, unchanged, behind the MCP server).
 */
import {
  ResultBuilder,
  ResultStatus,
  Tool,
  ToolPackage,
  ToolParameterProperty,
  ToolParameters,
  type PartialToolResult,
} from '@johannes.latzel/llm-chat';

/** One note of the app's notebook. */
export interface Note {
  title: string;
  text: string;
  tags: string[];
}

/** The notebook the tools work on; the app owns it (and saves it in `onStop()`). */
export class Notebook {
  readonly notes = new Map<string, Note>();

  toJSON(): Note[] {
    return [...this.notes.values()];
  }
}

class AddNoteTool extends Tool {
  constructor(private readonly notebook: Notebook) {
    super(
      'add_note',
      'Adds a note to the notebook, or replaces the note with the same title.',
      new ToolParameters(
        {
          title: ToolParameterProperty.string('Short unique title'),
          text: ToolParameterProperty.string('The note itself (Markdown)'),
          tags: ToolParameterProperty.array('Tags for finding the note later', ToolParameterProperty.string('A tag')),
        },
        ['title', 'text'],
      ),
    );
  }

  protected async onExecute(args: Record<string, unknown>): Promise<PartialToolResult> {
    const title = String(args.title).trim();
    if (title === '') throw new Error('A note needs a non-empty title.');
    const tags = Array.isArray(args.tags) ? args.tags.map(String) : [];
    const replaced = this.notebook.notes.has(title);
    this.notebook.notes.set(title, { title, text: String(args.text), tags });
    return { result: `${replaced ? 'Replaced' : 'Added'} note "${title}".`, status: ResultStatus.Success };
  }
}

class FindNotesTool extends Tool {
  constructor(private readonly notebook: Notebook) {
    super(
      'find_notes',
      'Finds notes whose title, text or tags contain every given word; one result per note.',
      new ToolParameters({ words: ToolParameterProperty.array('Words to look for (case-insensitive)') }, ['words']),
    );
  }

  protected async onExecute(args: Record<string, unknown>): Promise<PartialToolResult> {
    const words = (args.words as unknown[]).map((word) => String(word).toLowerCase());
    const hits = [...this.notebook.notes.values()].filter((note) => {
      const haystack = `${note.title}\n${note.text}\n${note.tags.join(' ')}`.toLowerCase();
      return words.every((word) => haystack.includes(word));
    });
    if (hits.length === 0) return { result: 'No note matches.', status: ResultStatus.Success };
    // One result per note: MCP clients receive one text block each, in this order.
    return ResultBuilder.from(
      hits.map((note) => ({ result: `# ${note.title}\n\n${note.text}`, status: ResultStatus.Success })),
    ).build();
  }
}

class DeleteNoteTool extends Tool {
  constructor(private readonly notebook: Notebook) {
    super(
      'delete_note',
      'Deletes a note by its title.',
      new ToolParameters({ title: ToolParameterProperty.string('Title of the note') }, ['title']),
    );
  }

  protected async onExecute(args: Record<string, unknown>): Promise<PartialToolResult> {
    const title = String(args.title);
    if (!this.notebook.notes.delete(title)) {
      return { result: `There is no note titled "${title}".`, status: ResultStatus.Error };
    }
    return { result: `Deleted note "${title}".`, status: ResultStatus.Success };
  }
}

/** The notebook tools as one llm-chat package; its tutorial becomes part of the server's instructions. */
export class NotebookPackage extends ToolPackage {
  constructor(notebook: Notebook) {
    super([new AddNoteTool(notebook), new FindNotesTool(notebook), new DeleteNoteTool(notebook)]);
  }

  override tutorial(): string {
    return [
      'Notebook tools: use find_notes before add_note to avoid duplicates;',
      'find_notes returns one block per matching note. delete_note is off unless the user enables it.',
    ].join(' ');
  }
}
