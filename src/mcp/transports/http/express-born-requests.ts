import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';
import { nodeHttp } from '../../../lazy-module.js';

/** The `IncomingMessage` / `ServerResponse` options of `http.createServer` (and `https.createServer`). */
export interface NodeMessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/** Whether `ctor` is a plain function constructor (callable with `call`, as Node 20's request and response classes are). */
function plainConstructor(ctor: unknown): ctor is (...args: unknown[]) => void {
  return typeof ctor === 'function' && !Function.prototype.toString.call(ctor).startsWith('class');
}

/**
 * Request and response classes for the Node server whose instances are born with the prototypes
 * express gives every request it handles (`app.request`, `app.response`), so express's own
 * `Object.setPrototypeOf(req, app.request)` (and `res`) at the start of each request changes nothing.
 *
 * Why: on V8 a property added to an object after its prototype was changed gets a map of its own,
 * in no transition tree, so every request's `req` and `res` had maps no other request shared, and
 * each store Node, express and the toolkit make on them (`statusCode`, `_header`, `route`,
 * `params`, ...) missed its inline cache and made a new map (~20 misses per request; docs/performance.md,
 * the HTTP floor). The objects are the same as before: the same prototype chain, the same
 * constructor code (Node's own, called on them), `instanceof IncomingMessage` still true.
 *
 * Undefined (plain `createServer`) when the app lacks `request`/`response` objects that inherit
 * from Node's classes, or Node's classes are not plain function constructors.
 */
export function expressBornRequests(app: Express): NodeMessageClasses | undefined {
  const http = nodeHttp();
  const { request, response } = app as unknown as { request?: unknown; response?: unknown };
  const Incoming: unknown = http.IncomingMessage;
  const Outgoing: unknown = http.ServerResponse;
  if (
    !plainConstructor(Incoming) ||
    !plainConstructor(Outgoing) ||
    typeof request !== 'object' ||
    request === null ||
    typeof response !== 'object' ||
    response === null ||
    !Object.prototype.isPrototypeOf.call(http.IncomingMessage.prototype, request) ||
    !Object.prototype.isPrototypeOf.call(http.ServerResponse.prototype, response)
  ) {
    return undefined;
  }
  const incoming = Incoming;
  const outgoing = Outgoing;
  function ExpressIncomingMessage(this: object, ...args: unknown[]): void {
    incoming.apply(this, args);
  }
  ExpressIncomingMessage.prototype = request;
  function ExpressServerResponse(this: object, ...args: unknown[]): void {
    outgoing.apply(this, args);
  }
  ExpressServerResponse.prototype = response;
  return {
    IncomingMessage: ExpressIncomingMessage as unknown as typeof IncomingMessage,
    ServerResponse: ExpressServerResponse as unknown as typeof ServerResponse,
  };
}
