import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type JSONRPCRequest,
  type Result,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import { dispatchPlainMessagesDirectly } from '../sdk-internals/direct-dispatch.js';
import { spareStdioChannelChecks } from '../sdk-internals/stdio-channel.js';
import { invalidParamsError } from '../wire/invalid-params.js';
import { wellFormed } from '../wire/well-formed.js';

type WrappedHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

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

/**
 * The SDK server every view is built on, with the protocol rules the SDK leaves open, kept
 * the same on every transport and era because they live in the view:
 *
 * - a second `initialize` on one connection is refused (JSON-RPC -32600 Invalid Request) and
 *   the first client identity and capabilities stay (MCP "Lifecycle": initialization is the
 *   first interaction, once per connection; Streamable HTTP already refuses it per session);
 * - a request whose params do not match the method's schema is answered -32602 Invalid params
 *   with a short message naming the fields (see `invalid-params.ts`), not -32603 with a schema
 *   dump;
 * - every message the view sends is well-formed Unicode (lone surrogates -> U+FFFD, see
 *   `well-formed.ts`), whatever app code put into it.
 *
 * Uses the SDK's protected `_wrapHandler` hook (declared in its typings) and the transport's
 * public `send`; the dispatch shortcuts in `connect` use private parts, kept in `sdk-internals/`.
 */
export class ViewServer extends Server {
  #initialized = false;

  protected override _wrapHandler(method: string, handler: WrappedHandler): WrappedHandler {
    const wrapped = super._wrapHandler(method, handler);
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
      if (this.#initialized) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          'Invalid Request: this connection is already initialized; initialize may be sent only once (MCP lifecycle). Open a new connection to start over.',
        );
      }
      try {
        const result = await wrapped(request, ctx);
        this.#initialized = true;
        return result;
      } catch (error) {
        return refine(error);
      }
    };
  }

  /**
   * Connects as the SDK does, with every outgoing message made well-formed Unicode first, and
   * plain inbound requests dispatched without the SDK's schema-by-schema classification
   * (`sdk-internals/direct-dispatch.ts`: same dispatch, fewer parses), and on stdio the
   * channel's bookkeeping without its per-message parses (`sdk-internals/stdio-channel.ts`).
   */
  override async connect(transport: Transport): Promise<void> {
    spareStdioChannelChecks(transport);
    const send = transport.send.bind(transport);
    transport.send = (message, options) => send(wellFormed(message), options);
    const hadCallback = transport.onmessage !== undefined;
    await super.connect(transport);
    if (!hadCallback) dispatchPlainMessagesDirectly(this, transport);
  }
}
