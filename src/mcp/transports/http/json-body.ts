import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { BODY_CUT_OFF, bodyHeaderRefusal, parseJsonRpcBody, payloadTooLarge, type HttpRefusal } from './checks.js';
import { sendRpcError, sendRpcRefusal } from './responses.js';

/** Why a body was refused: the HTTP status and the JSON-RPC error to answer with. */
type BodyRefusal = HttpRefusal;

/**
 * How much of an oversized body is still read (and thrown away) before the 413 goes out:
 * a client that is still writing when the server closes the connection gets EPIPE or a
 * reset instead of the answer. Past these bounds the 413 is sent and the connection closed.
 */
export const OVERSIZED_BODY_DRAIN = Object.freeze({ maxBytes: 64 * 1024 * 1024, maxMs: 5_000 });

/**
 * Reads and discards the rest of a request body, resolving when it ended, failed, or
 * {@link OVERSIZED_BODY_DRAIN} bounds (counting `received` bytes already read) are reached.
 */
function drain(req: IncomingMessage, received: number): Promise<void> {
  return new Promise((resolve) => {
    let size = received;
    const timer = setTimeout(() => finish(), OVERSIZED_BODY_DRAIN.maxMs);
    const finish = () => {
      clearTimeout(timer);
      req.off('data', onData).off('end', finish).off('error', finish).off('aborted', finish).off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > OVERSIZED_BODY_DRAIN.maxBytes) finish();
    };
    if (req.readableEnded || req.destroyed) return finish();
    req.on('data', onData).once('end', finish).once('error', finish).once('aborted', finish).once('close', finish);
    req.resume();
  });
}

const tooLarge = payloadTooLarge;

/**
 * Reads the whole body; when more than `limit` bytes arrive (or are declared) the rest is
 * drained (see {@link drain}) and a 413 refusal returned.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | BodyRefusal> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) {
    return declared > OVERSIZED_BODY_DRAIN.maxBytes
      ? Promise.resolve(tooLarge(limit))
      : drain(req, 0).then(() => tooLarge(limit));
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | BodyRefusal | undefined) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onError);
      if (result) resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        finish(undefined);
        void drain(req, size).then(() => resolve(tooLarge(limit)));
      } else chunks.push(chunk);
    };
    const onEnd = () => finish(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    const onError = () => finish(BODY_CUT_OFF);
    req.on('data', onData).once('end', onEnd).once('error', onError).once('aborted', onError);
  });
}

/**
 * Reads and parses a POST's JSON body exactly once, into `req.body`, for both eras
 * (GET/DELETE carry none: `req.body` stays undefined). Refusals are JSON-RPC errors:
 * 415 for a Content-Type other than `application/json` (UTF-8, RFC 8259 section 8.1) or
 * a compressed body, 413 for more than `limit` bytes (declared or received; the rest of
 * the body is read and discarded first, within {@link OVERSIZED_BODY_DRAIN}, so the client
 * reads the 413 instead of a broken pipe; the connection is then closed), 400
 * `-32700 Parse error` for malformed JSON, 400 `-32600 Invalid Request` for JSON that is not one
 * JSON-RPC message (a batch, a fractional id, `_meta: null`; with the request's id when it can be
 * read, see `json-rpc-shape.ts`).
 *
 * A few lines instead of `express.json()`: the endpoint accepts exactly one media type,
 * and skipping body-parser's content negotiation, charset decoding and inflation
 * measurably lowers the per-call CPU of the dual-era router (see docs/http-server.md).
 */
export function jsonBody(limit: number): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const refused = bodyHeaderRefusal(req.headers['content-type'], req.headers['content-encoding']);
    const answer = (refusal: BodyRefusal) =>
      sendRpcError(
        res,
        refusal.status,
        refusal.code,
        refusal.message,
        refusal.status === 413 ? { Connection: 'close' } : {},
      );
    if (refused) return answer(refused);
    readBody(req, limit).then((raw) => {
      if (!Buffer.isBuffer(raw)) return answer(raw);
      const parsed = parseJsonRpcBody(raw.toString('utf8'));
      if ('refusal' in parsed) return answer(parsed.refusal);
      if ('response' in parsed) return sendRpcRefusal(res, 400, parsed.response);
      req.body = parsed.body;
      next();
    }, next);
  };
}
