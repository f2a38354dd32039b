import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type BaseContext,
  type CallToolResult,
  type Implementation,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type ResourceUpdatedNotification,
  type Result,
  type ServerContext,
  type ServerOptions,
  type Transport,
} from '@modelcontextprotocol/server';
import { invalidParamsError } from '../wire/invalid-params.js';
import { WELL_FORMED_AT_WIRE, wellFormed, WRITES_WELL_FORMED } from '../wire/well-formed.js';
import {
  deferRequestHandlers,
  registeringHandler,
  removeRequestHandlerDeferred,
  setRequestHandlerDeferred,
} from './deferred-handlers.js';
import { dispatchPlainMessagesDirectly } from './direct-dispatch.js';
import { admitStdioListens, type InterestHolder } from './listen-admission.js';
import { withContextSlots } from './stable-context.js';
import {
  deliverPlainCallsDirectly,
  modernQueueBypassMismatch,
  spareStdioChannelChecks,
  stdioWireOf,
} from './stdio-channel.js';
import { closeQuietly } from './quiet-close.js';
import {
  recordPlainToolsCall,
  serveToolsCall,
  stdioToolsCallApplies,
  stdioToolsCallDispatchOn,
  steadyRequestTable,
} from './stdio-tools-call.js';
import { toolsCallWrapperApplies, wrapPlainToolsCall, wrapToolsCall } from './tools-call-wrapper.js';

type WrappedHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** Protocol revisions from this one on are the modern (2026-07-28) era; they compare as dates. */
const FIRST_MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Whether `server` negotiated a modern-era (2026-07-28 or later) revision. */
function servesModernEra(server: Server): boolean {
  const version = server.getNegotiatedProtocolVersion();
  return version !== undefined && version >= FIRST_MODERN_PROTOCOL_VERSION;
}

/** Per method, the rejection handler that turns a schema failure into -32602; shared by every view (heap per session, W3). */
const refiners = new Map<string, (error: unknown) => never>();

function refinerFor(method: string): (error: unknown) => never {
  let refine = refiners.get(method);
  if (!refine) {
    refine = (error: unknown) => {
      throw invalidParamsError(method, error) ?? error;
    };
    refiners.set(method, refine);
  }
  return refine;
}

/** `tools/call` answers that are task handles (`CreateTaskResult`), not `CallToolResult`s. */
const taskAnswers = new WeakSet<object>();

/**
 * Marks `result` as a task handle, so that a view serving tasks sends it as it is (see {@link ViewServer}).
 * Typed as the `CallToolResult` the SDK's `tools/call` handler type demands: the SDK's types know no task
 * handle there, and this is the one place that carries one past them.
 */
export function taskAnswer(result: Result): CallToolResult {
  taskAnswers.add(result);
  return result as CallToolResult;
}

/** Carries a task handle out of the SDK's wrapper; not an `Error`, so no stack trace is captured per call. */
class TaskAnswerEscape {
  constructor(readonly result: Result) {}
}

const noEscape = (): void => {};

/**
 * `wrapped` with its rejections settled by `settle` (which throws the refined error, or answers a task
 * handle). Not async: one promise reaction per request instead of an async frame (hot path, W2).
 */
function settled(wrapped: WrappedHandler, settle: (error: unknown) => Result): WrappedHandler {
  return (request, ctx) => {
    try {
      return wrapped(request, ctx).then(undefined, settle);
    } catch (error) {
      return Promise.resolve().then(() => settle(error));
    }
  };
}

/** Throws a task handle past the `CallToolResult` check (caught again by the view's wrapper). */
function escapeTaskAnswer(result: Result): void {
  if (taskAnswers.has(result)) throw new TaskAnswerEscape(result);
}

/** What a view adds to the SDK's `ServerOptions`; each part is a value the view holds, not a subclass. */
export interface ViewServerOptions extends ServerOptions {
  /**
   * MCP tasks, when the view serves them: the 2025-11-25 `tasks` capability for the `initialize`
   * answer and the extension id advertised in `server/discover` (SEP-2663, no `tasks` slot there).
   */
  readonly tasks?: { readonly legacyCapability: object; readonly extensionId: string };
  /**
   * Whether the client may be sent `notifications/resources/updated` for `uri`: on the legacy era
   * (`modern` false) its `resources/subscribe` set and the resource's access rule; on 2026-07-28
   * (`modern` true) the access rule only, as the SDK's listen router then filters by the client's
   * `subscriptions/listen` filter. Without it every update is sent.
   */
  readonly wantsResourceUpdate?: (uri: string, modern: boolean) => boolean;
  /** Where a 2026-07-28 stdio connection's listen subscriptions hold their resource URIs (`admitStdioListens`). */
  readonly interest?: InterestHolder;
}

/**
 * The one subclass of the SDK `Server` in the toolkit: every view is an instance, configured by
 * values ({@link ViewServerOptions}) rather than by further subclasses. It adds the protocol rules
 * the SDK leaves open, the same on every transport and era:
 *
 * - a second `initialize` on one connection is refused (JSON-RPC -32600 Invalid Request) and the
 *   first client identity stays (MCP "Lifecycle": initialization happens once per connection);
 * - a request whose params do not match the method's schema is answered -32602 Invalid params
 *   with a short message naming the fields (`wire/invalid-params.ts`), not -32603 with a dump;
 * - every message the view sends is well-formed Unicode (`wire/well-formed.ts`);
 * - with `tasks`: the tasks capability per era, and a `tools/call` answer marked by
 *   {@link taskAnswer} is carried past the SDK's `CallToolResult` check unchanged;
 * - with `wantsResourceUpdate`: resource updates only for URIs the client subscribed to and may read,
 *   and on a 2026-07-28 stdio connection `subscriptions/listen` acknowledgements that list only
 *   URIs it may read (`listen-admission.ts`).
 *
 * SDK parts used: the protected `_wrapHandler` and `buildContext` hooks (declared in its typings; the
 * context is built on stable hidden classes, `stable-context.ts`), `getCapabilities`,
 * `sendResourceUpdated`, `connect`; the dispatch shortcuts in `connect` use private parts
 * (`direct-dispatch.ts`, `stdio-channel.ts`), each with a self-check, and handlers are installed on
 * the first request for their method (`deferred-handlers.ts`, the private `_requestHandlers` map);
 * a view with nothing pending closes without a stack trace for the SDK's unused `ConnectionClosed`
 * error (`quiet-close.ts`, the private `_onclose`).
 */
export class ViewServer extends Server {
  #initialized = false;
  // Not `#` fields: the SDK's constructor calls the overrides below before they are set.
  private readonly viewTasks: ViewServerOptions['tasks'];
  private readonly wantsResourceUpdate: ViewServerOptions['wantsResourceUpdate'];
  private readonly interest: ViewServerOptions['interest'];

  constructor(serverInfo: Implementation, options: ViewServerOptions) {
    const { tasks, wantsResourceUpdate, interest, ...sdkOptions } = options;
    super(serverInfo, sdkOptions);
    this.viewTasks = tasks;
    this.interest = interest;
    this.wantsResourceUpdate = wantsResourceUpdate;
    deferRequestHandlers(this);
  }

  override getCapabilities() {
    const capabilities = super.getCapabilities();
    const tasks = this.viewTasks;
    if (!tasks) return capabilities;
    if (!servesModernEra(this) && this.getNegotiatedProtocolVersion() !== undefined) {
      return { ...capabilities, tasks: tasks.legacyCapability } as typeof capabilities;
    }
    const extensions = { ...(capabilities as { extensions?: object }).extensions, [tasks.extensionId]: {} };
    return { ...capabilities, extensions } as typeof capabilities;
  }

  /** Sends `notifications/resources/updated` unless `wantsResourceUpdate` refuses the URI. */
  override async sendResourceUpdated(params: ResourceUpdatedNotification['params']): Promise<void> {
    const wants = this.wantsResourceUpdate;
    if (wants && !wants(params.uri, servesModernEra(this))) return;
    return super.sendResourceUpdated(params);
  }

  /** The SDK's handler context, built on stable hidden classes (`stable-context.ts`: same keys, order and values). */
  protected override buildContext(ctx: BaseContext, transportInfo?: MessageExtraInfo): ServerContext {
    return super.buildContext(withContextSlots(ctx), transportInfo);
  }

  protected override _wrapHandler(method: string, handler: WrappedHandler): WrappedHandler {
    const registered = method === 'tools/call' ? registeringHandler() : undefined;
    if (registered && toolsCallWrapperApplies(this)) {
      // The SDK's tools/call wrapper with the request parsed once (`tools-call-wrapper.ts`), and
      // its plain form for the stdio dispatch (`stdio-tools-call.ts`): the same steps, fewer frames.
      const refine = refinerFor(method);
      const escape = this.viewTasks ? escapeTaskAnswer : noEscape;
      const settle = this.viewTasks
        ? (error: unknown): Result => (error instanceof TaskAnswerEscape ? error.result : refine(error))
        : refine;
      const installed = settled(wrapToolsCall(this, registered, escape), settle);
      recordPlainToolsCall(installed, wrapPlainToolsCall(this, registered, escape), settle);
      return installed;
    }
    if (method === 'tools/call' && this.viewTasks) {
      const inner = ViewServer.#refined(
        this,
        method,
        super._wrapHandler(method, async (request, ctx) => {
          const result = await handler(request, ctx);
          escapeTaskAnswer(result);
          return result;
        }),
      );
      return async (request, ctx) => {
        try {
          return await inner(request, ctx);
        } catch (error) {
          if (error instanceof TaskAnswerEscape) return error.result;
          throw error;
        }
      };
    }
    return ViewServer.#refined(this, method, super._wrapHandler(method, handler));
  }

  static #refined(server: ViewServer, method: string, wrapped: WrappedHandler): WrappedHandler {
    const refine = refinerFor(method);
    if (method !== 'initialize') {
      // Not async: one promise reaction per request instead of an async frame (hot path, W2).
      return (request, ctx) => {
        try {
          return wrapped(request, ctx).then(undefined, refine);
        } catch (error) {
          return refine(error);
        }
      };
    }
    return async (request, ctx) => {
      if (server.#initialized) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          'Invalid Request: this connection is already initialized; initialize may be sent only once (MCP lifecycle). Open a new connection to start over.',
        );
      }
      try {
        const result = await wrapped(request, ctx);
        server.#initialized = true;
        return result;
      } catch (error) {
        return refine(error);
      }
    };
  }

  /**
   * Connects as the SDK does, with every outgoing message made well-formed Unicode first, on a
   * 2026-07-28 stdio channel listen acknowledgements held to `wantsResourceUpdate`, plain
   * inbound requests dispatched without the SDK's schema-by-schema classification
   * (`direct-dispatch.ts`: same dispatch, fewer parses), and on stdio the channel's bookkeeping
   * without its per-message parses (`stdio-channel.ts`).
   */
  override async connect(transport: Transport): Promise<void> {
    const wants = this.wantsResourceUpdate;
    // The SDK's stdio entry acknowledges listen filters itself: held to the read rule on its wire.
    if (wants && servesModernEra(this)) admitStdioListens(transport, (uri) => wants(uri, true), this.interest);
    const stdio = spareStdioChannelChecks(transport);
    const send = transport.send.bind(transport);
    // A response to a stdio wire that checks its serialized line is made well-formed there (cheaper).
    const atWire = (stdioWireOf(transport) as { [WRITES_WELL_FORMED]?: boolean } | undefined)?.[WRITES_WELL_FORMED];
    transport.send = (message, options) =>
      atWire && options === undefined && !('method' in message)
        ? send(message, WELL_FORMED_AT_WIRE)
        : send(wellFormed(message), options);
    const hadCallback = transport.onmessage !== undefined;
    await super.connect(transport);
    // On stdio, plain tools/call requests skip the SDK's per-request machinery (`stdio-tools-call.ts`).
    const serve = stdio && stdioToolsCallApplies(this) ? serveToolsCall.bind(undefined, this) : undefined;
    if (!hadCallback) dispatchPlainMessagesDirectly(this, transport, serve);
    if (serve && stdioToolsCallDispatchOn()) {
      const modern = servesModernEra(this);
      if (!modern || modernQueueBypassMismatch() === undefined) deliverPlainCallsDirectly(transport, modern);
      steadyRequestTable(this);
    }
  }
}

// The SDK's overloads of these two stay the typed surface; a view's handlers install on first use
// (`deferred-handlers.ts`). Assigned on the prototype: one function for every view.
Object.assign(ViewServer.prototype, {
  setRequestHandler(this: ViewServer, method: string, ...rest: unknown[]) {
    setRequestHandlerDeferred(this, method, rest);
  },
  removeRequestHandler(this: ViewServer, method: string) {
    removeRequestHandlerDeferred(this, method);
  },
});
// A view with nothing pending closes without the SDK's unused error's stack trace (`quiet-close.ts`, which
// checks each closing view's fields: probing a server at module load cost ~1 ms of every cold start).
Object.assign(ViewServer.prototype, {
  _onclose(this: ViewServer) {
    closeQuietly(this);
  },
});
