import type { Logger } from '../logger.js';
import type { ToolContext } from '../registry/tool-context.js';
import type { ClientModule } from './client-loader.js';

type Client = import('@modelcontextprotocol/client').Client;
/** What a forwarded call's caller offers the relay: its logger and its ways to ask for input. */
type Caller = Pick<ToolContext, 'log' | 'elicit' | 'elicitUrl' | 'completeUrlElicitation' | 'sample' | 'listRoots'>;

/**
 * The client capabilities an upstream is told about: what the relay can pass on to a caller
 * (a caller lacking one makes the upstream's request fail, as it would if it had asked that client).
 * `roots` without `listChanged`: roots belong to the calling client, not to the upstream connection
 * all our clients share, so a client's `notifications/roots/list_changed` is not passed on (an
 * upstream told of it would ask `roots/list` outside any call, which has no caller to answer it).
 */
export const RELAYED_CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } as const;

/** How many URL elicitations are remembered for their `notifications/elicitation/complete` (the oldest is forgotten first). */
const REMEMBERED_URL_ELICITATIONS = 256;

/** An upstream's MCP log level as the caller's logger method. */
function levelOf(level: string): keyof Caller['log'] {
  if (level === 'debug') return 'debug';
  if (level === 'info' || level === 'notice') return 'info';
  if (level === 'warning') return 'warn';
  return 'error';
}

/**
 * Passes what an upstream sends during a forwarded call to the client that made it: its log
 * messages (`notifications/message`) and its elicitation (form and URL mode), sampling and
 * `roots/list` requests, whose answers go back upstream, and its `notifications/elicitation/complete` to the
 * client a URL elicitation was relayed to. MCP links neither to the request they belong to, so they go to the call in flight
 * when there is exactly one; with none or several, a log message goes to this server's log and a
 * request is refused (an error to the upstream), as is one the calling client cannot answer (it
 * lacks the capability). On a 2026-07-28 caller, a request not answered yet ends the forwarded
 * call with the caller's input round ({@link CallRelay.enter}'s `failed`); the caller's retry
 * forwards the call again and the relay answers the upstream's same request from that round.
 */
export class CallRelay {
  readonly #calls = new Set<{ caller: Caller; fail(error: unknown): void }>();
  /** The caller each relayed URL elicitation went to, by `elicitationId`, for its completion notice. */
  readonly #urlElicitations = new Map<string, Caller>();

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
      if (params.mode === 'url') {
        const { message, url, elicitationId } = params;
        // On 2026-07-28 the request comes from an input_required round, without an elicitationId.
        const id = elicitationId as string | undefined;
        return relay('URL elicitation', (caller) => {
          if (id !== undefined) this.#remember(id, caller);
          return caller.elicitUrl({ message, url, ...(id !== undefined && { elicitationId: id }) });
        });
      }
      return relay('Elicitation', (caller) =>
        caller.elicit({ message: params.message, requestedSchema: params.requestedSchema as never }),
      );
    });
    // The upstream's out-of-band interaction finished: tell the client it sent the user there.
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      const { elicitationId } = notification.params;
      const caller = this.#urlElicitations.get(elicitationId);
      this.#urlElicitations.delete(elicitationId);
      return caller?.completeUrlElicitation(elicitationId);
    });
    client.setRequestHandler('roots/list', () => relay('Roots', (caller) => caller.listRoots()));
    client.setRequestHandler('sampling/createMessage', (request) => {
      const { task: _task, _meta, ...params } = request.params as typeof request.params & { task?: unknown };
      return relay('Sampling', (caller) => caller.sample(params as never)) as never;
    });
  }

  #remember(elicitationId: string, caller: Caller): void {
    if (this.#urlElicitations.size >= REMEMBERED_URL_ELICITATIONS) {
      this.#urlElicitations.delete(this.#urlElicitations.keys().next().value!);
    }
    this.#urlElicitations.set(elicitationId, caller);
  }

  #single() {
    if (this.#calls.size !== 1) return undefined;
    return this.#calls.values().next().value;
  }
}
