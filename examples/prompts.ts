/**
 * Prompts tour: every feature of docs/prompts.md in one runnable server.
 * Run: npm run build:examples && node .tmp/examples/examples/prompts.js
 * (or compile with tsc); talk to it over stdio with any MCP client.
 */
import { completable } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  Prompt,
  StdioMcpServer,
  UserError,
  definePrompt,
  type CompletionContext,
  type PromptContext,
  type PromptReturn,
} from '../src/index.js';

const server = new StdioMcpServer({ name: 'prompts-example', version: '1.0.0' });

// #region basic
server.registerPrompt({
  name: 'git-commit',
  title: 'Commit message',
  description: 'Generate a Git commit message',
  arguments: [{ name: 'changes', description: 'Git diff or description of changes', required: true }],
  load: ({ changes }) => `Generate a concise but descriptive commit message for these changes:\n\n${changes}`,
});
// #endregion basic

// #region completion
const COUNTRIES = ['France', 'Germany', 'Georgia', 'Ghana', 'Italy'];

server.registerPrompt({
  name: 'country-poem',
  description: 'Writes a poem about a country',
  arguments: [
    {
      name: 'country',
      required: true,
      // Called on completion/complete with what the user typed so far.
      complete: (value) => COUNTRIES.filter((country) => country.toLowerCase().startsWith(value.toLowerCase())),
    },
    // An enum restricts the value (-32602 otherwise) and completes by prefix, case-insensitively.
    { name: 'form', description: 'Poem form', enum: ['haiku', 'sonnet', 'limerick'] },
  ],
  load: ({ country, form = 'haiku' }) => `Write a ${form} about ${country}.`,
});
// #endregion completion

// #region schema
const LANGUAGES = ['typescript', 'python', 'rust', 'go'];

const codeReview = definePrompt({
  name: 'code-review',
  description: 'Review a piece of code',
  arguments: z.object({
    language: completable(z.string().describe('Programming language'), (value) =>
      LANGUAGES.filter((language) => language.startsWith(value)),
    ),
    focus: z.enum(['security', 'performance', 'style']).optional().describe('What to look at'),
    code: z.string().describe('The code to review'),
  }),
  // `language`, `focus` and `code` are typed from the schema.
  load: ({ language, focus, code }) => [
    {
      role: 'user',
      content: { type: 'text', text: `Review this ${language} code${focus ? ` for ${focus}` : ''}:\n\n${code}` },
    },
    { role: 'assistant', content: { type: 'text', text: 'I will go through it step by step.' } },
  ],
});
server.registerPrompt(codeReview);
// #endregion schema

// #region class
class StandupPrompt extends Prompt<{ team: string; day?: string }> {
  readonly #teams: ReadonlyMap<string, readonly string[]>;

  constructor(teams: ReadonlyMap<string, readonly string[]>) {
    super({
      name: 'standup',
      title: 'Stand-up',
      description: 'Daily stand-up summary for a team',
      arguments: [
        { name: 'team', required: true, complete: (value) => [...teams.keys()].filter((t) => t.startsWith(value)) },
        // Completion sees the arguments the user already filled in (`context.arguments`).
        { name: 'day', complete: (value, context: CompletionContext) => daysFor(context.arguments.team, value) },
      ],
    });
    this.#teams = teams;
  }

  async load({ team, day = 'today' }: { team: string; day?: string }, context: PromptContext): Promise<PromptReturn> {
    const members = this.#teams.get(team);
    if (!members) throw new UserError(`Unknown team "${team}"; try one of: ${[...this.#teams.keys()].join(', ')}.`);
    context.log.debug('building stand-up prompt', { team, era: context.era });
    return {
      description: `Stand-up for ${team} (${day})`,
      messages: [
        { role: 'user', content: { type: 'text', text: `Summarize ${day}'s updates from ${members.join(', ')}.` } },
      ],
    };
  }
}

function daysFor(team: string | undefined, prefix: string): string[] {
  const days = team === 'ops' ? ['today', 'yesterday', 'weekend'] : ['today', 'yesterday'];
  return days.filter((day) => day.startsWith(prefix));
}

server.registerPrompt(
  new StandupPrompt(
    new Map([
      ['core', ['ana', 'bo']],
      ['ops', ['chen']],
    ]),
  ),
);
// #endregion class

await server.start();

// #region runtime
// After start(): every connected client gets one notifications/prompts/list_changed per call.
server.registerPrompt({ name: 'release-notes', load: () => 'Summarize the changes since the last release.' });
server.removePrompt('release-notes');
// #endregion runtime
