/**
 * The "after" side of docs/migrating-from-llm-chat-mcp.md: an llm-chat-mcp 0.3.0 app moved to
 * this toolkit. The tools stay llm-chat tools; only the server code changes.
 * Run: npm run build && npm run build:examples && node .tmp/examples/examples/migrating-from-llm-chat-mcp.js
 */
import {
  ResultStatus,
  Tool as LlmChatTool,
  ToolPackage as LlmChatToolPackage,
  ToolParameterProperty,
  ToolParameters,
  type PartialToolResult,
} from '@johannes.latzel/llm-chat';
// #region imports
import { HttpMcpServer, StdioMcpServer, type ServerEventMap } from 'mcp-toolkit';
import { fromLlmChatTool, type McpServerObserver, type SessionToolSetFactory } from 'mcp-toolkit/llm-chat';
// #endregion imports

// The app's llm-chat tools: unchanged by the migration.
class ClockTool extends LlmChatTool {
  constructor() {
    super(
      'clock',
      'Current time in a time zone.',
      new ToolParameters({ zone: ToolParameterProperty.string('IANA zone') }),
    );
  }
  protected async onExecute(args: Record<string, unknown>): Promise<PartialToolResult> {
    const zone = typeof args.zone === 'string' ? args.zone : 'UTC';
    return { result: new Date().toLocaleString('en-GB', { timeZone: zone }), status: ResultStatus.Success };
  }
}

class TimePackage extends LlmChatToolPackage {
  constructor() {
    super([new ClockTool()]);
  }
  override tutorial(): string {
    return 'Use clock with an IANA zone such as Europe/Berlin.';
  }
}

class ScratchpadTool extends LlmChatTool {
  readonly lines: string[] = [];
  constructor() {
    super(
      'scratchpad',
      'Appends a line to this session’s scratchpad.',
      new ToolParameters({ line: ToolParameterProperty.string('Text') }, ['line']),
    );
  }
  protected async onExecute(args: Record<string, unknown>): Promise<PartialToolResult> {
    this.lines.push(String(args.line));
    return { result: this.lines.join('\n'), status: ResultStatus.Success };
  }
}

// #region construct
const observer: McpServerObserver = {
  onToolCall: ({ name, durationMs, error }) => console.error(`tool ${name} ${durationMs.toFixed(1)} ms ${error ?? ''}`),
  onResourceRead: ({ uri, ok, durationMs }) => console.error(`read ${uri} ${ok ? 'ok' : 'failed'} ${durationMs} ms`),
};

// The llm-chat-mcp factory object works as it is.
const sessionToolFactory: SessionToolSetFactory = {
  create: () => ({ tools: [new ScratchpadTool()], dispose: async () => {} }),
};

// Before: new HttpMcpServer({ name, version, port: 3000 }, observer, sessionToolFactory)
const server = new HttpMcpServer(
  { name: 'my-app', version: '1.0.0' },
  { port: 3000, host: '127.0.0.1', observer, sessionTools: sessionToolFactory },
);
// #endregion construct

const docsDir = process.argv[2] ?? 'docs';

// #region register
server.registerTool(new TimePackage()); // llm-chat objects as they are; the tutorial joins `instructions`
server.registerFolder({ path: docsDir, extensions: ['md'] });
server.registerContentDocument({
  name: 'changelog', // served at content://changelog, as llm-chat-mcp did
  title: 'Changelog',
  content: async () => '# Changelog\n\n- 1.0.0: first release', // read on every resources/read
});
// #endregion register

// #region toggle
server.setDisabledTools(['clock']); // the whole set, e.g. loaded from the app's settings
server.enableTool('clock');
server.disableTool('clock');
const rows = server.getToolStates().map(({ tool, enabled }) => ({ name: tool.name, enabled }));
// #endregion toggle

// #region hooks
// Before: server.hook().toolRegistered('clock').do((name) => ...) returned a disposable Hook.
const onToolRegistered = ({ tool }: ServerEventMap['toolRegistered'][0]) => {
  if (tool.name === 'clock') console.error('clock is available');
};
server.events.on('toolRegistered', onToolRegistered);
server.events.on('started', () => console.error('started'));
server.events.on('documentRegistered', ({ document }) => console.error(`document ${document.name}`));
server.events.on('sessionCreated', ({ sessionId }) => console.error(`session ${sessionId} created`));
server.events.on('sessionClosed', ({ sessionId, reason }) => console.error(`session ${sessionId} ${reason}`));
// Before: hook.dispose()
server.events.off('toolRegistered', onToolRegistered);
// #endregion hooks

// #region subclass
class MyApp extends HttpMcpServer {
  protected override async onStop(): Promise<void> {
    // Release the app's own resources; the HTTP listener and sessions are closed afterwards
    // by the toolkit, so there is no super.onStop() to call.
  }
}
// #endregion subclass

// #region stdio
const stdio = new StdioMcpServer({ name: 'my-app', version: '1.0.0' }, { observer });
stdio.registerTool(new TimePackage());
// #endregion stdio

// #region timeouts
// Every tool without its own limit gets 30 s; this one gets 5 s (and a title).
const limited = new StdioMcpServer({ name: 'my-app', version: '1.0.0' }, { defaultToolTimeoutMs: 30_000 });
limited.registerTool(new TimePackage());
limited.registerTool(fromLlmChatTool(new ScratchpadTool(), { timeoutMs: 5_000, title: 'Scratchpad' }));
// #endregion timeouts

void MyApp;
void stdio;
void limited;
console.error(rows);
await server.start();
console.error(`listening on ${server.address.url}`);
process.once('SIGINT', () => void server.stop());
