import type { Logger } from '../logger.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { ClientModule } from './client-loader.js';

type Client = import('@modelcontextprotocol/client').Client;
/** What a forwarded call's caller offers the relay: its logger and its way to ask for input. */
type Caller = Pick<ToolContext, 'log' | 'elicit' | 'sample'>;

/** The client capabilities an upstream is told about: what the relay can pass on to a caller. */
export const RELAYED_CAPABILITIES = { elicitation: { form: {} }, sampling: {} } as const;

/** An upstream's MCP log level as the caller's logger method. */
function levelOf(level: string): keyof Caller['log'] {
  if (level === 'debug') return 'debug';
  if (level === 'info' || level === 'notice') return 'info';
  if (level === 'warning') return 'warn';
  return 'error';
}

/**
 * Passes what an upstream sends during a forwarded call to the client that made it: its log
 * messages (`notifications/message`) and its elicitation and sampling requests, whose answers go
 * back upstream. MCP links neither to the request they belong to, so they go to the call in flight
 * when there is exactly one; with none or several, a log message goes to this server's log and a
 * request is refused (an error to the upstream), as is one the calling client cannot answer (it
 * lacks the capability). On a 2026-07-28 caller, a request not answered yet ends the forwarded
 * call with the caller's input round ({@link CallRelay.enter}'s `failed`); the caller's retry
 * forwards the call again and the relay answers the upstream's same request from that round.
 */
export class CallRelay {
  readonly #calls = new Set<{ caller: Caller; fail(error: unknown): void }>();

  constructor(
    private readonly upstream: string,
    private readonly logger: Logger,
    /** Blanks the upstream's secrets from what goes to this server's log. */
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** Marks a call in flight; `failed` rejects when the call must end with the caller's input round. */
  enter(caller: Caller): { failed: Promise<never>; leave(): void } {
    let fail!: (error: unknown) => void;
    const failed = new Promise<never>((_resolve, reject) => (fail = reject));
    failed.catch(() => {});
    const call = { caller, fail };
    this.#calls.add(call);
    return { failed, leave: () => this.#calls.delete(call) };
  }

  /** Installs the relay's handlers on a client. */
  attach(client: Client, module: ClientModule): void {
    client.setNotificationHandler('notifications/message', (notification) => {
      const { level, logger, data } = notification.params;
      const call = this.#single();
      if (!call) {
        const text = this.redact(typeof data === 'string' ? data : (JSON.stringify(data) ?? ''));
        return void this.logger.debug({ level, logger, data: text }, 'upstream log');
      }
      const message = typeof data === 'string' ? data : `${logger ?? this.upstream}: ${level}`;
      call.caller.log[levelOf(level)](message, typeof data === 'string' ? undefined : data);
    });
    const refuse = (what: string, why: string) =>
      new module.ProtocolError(module.ProtocolErrorCode.InvalidRequest, `${what} not relayed: ${why}.`);
    const relay = async <T>(what: string, ask: (caller: Caller) => Promise<T>): Promise<T> => {
      const call = this.#single();
      if (!call) {
        const why = this.#calls.size === 0 ? 'no call of this client is in flight' : 'several calls are in flight';
        throw refuse(what, why);
      }
      try {
        return await ask(call.caller);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'INPUT_UNAVAILABLE') throw refuse(what, 'the calling client does not support it');
        if (error instanceof Error && 'key' in error && 'request' in error) call.fail(error); // the caller's input round
        throw refuse(what, error instanceof Error ? error.message : String(error));
      }
    };
    client.setRequestHandler('elicitation/create', (request) => {
      const params = request.params;
      if (params.mode === 'url') throw refuse('URL elicitation', 'only form elicitation is relayed');
      return relay('Elicitation', (caller) =>
        caller.elicit({ message: params.message, requestedSchema: params.requestedSchema as never }),
      );
    });
    client.setRequestHandler('sampling/createMessage', (request) => {
      const { task: _task, _meta, ...params } = request.params as typeof request.params & { task?: unknown };
      return relay('Sampling', (caller) => caller.sample(params as never)) as never;
    });
  }

  #single() {
    if (this.#calls.size !== 1) return undefined;
    return this.#calls.values().next().value;
  }
}
