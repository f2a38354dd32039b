import type { IncomingMessage } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/server';
import type { RequestHandler } from 'express';
import { checkJsonRpcMessage } from '../../wire/json-rpc-shape.js';
import { HttpRpcError, sendRpcError, sendRpcRefusal } from './responses.js';

/** Why a body was refused: the HTTP status and the JSON-RPC error to answer with. */
interface BodyRefusal {
  status: number;
  code: number;
  message: string;
}

/**
 * How much of an oversized body is still read (and thrown away) before the 413 goes out:
 * a client that is still writing when the server closes the connection gets EPIPE or a
 * reset instead of the answer. Past these bounds the 413 is sent and the connection closed.
 */
export const OVERSIZED_BODY_DRAIN = Object.freeze({ maxBytes: 64 * 1024 * 1024, maxMs: 5_000 });

const UTF8_CHARSET = /;\s*charset\s*=\s*"?(utf-?8)"?\s*(;|$)/i;
const ANY_CHARSET = /;\s*charset\s*=/i;

/** What a POST's headers say before any byte is read: a refusal, or undefined to read on. */
function refuseByHeaders(req: IncomingMessage): BodyRefusal | undefined {
  const type = req.headers['content-type'];
  if (!isJsonContentType(type) || (ANY_CHARSET.test(type ?? '') && !UTF8_CHARSET.test(type ?? ''))) {
    return {
      status: 415,
      code: HttpRpcError.SERVER_ERROR,
      message: 'Unsupported Media Type: Content-Type must be application/json (UTF-8)',
    };
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    return { status: 415, code: HttpRpcError.SERVER_ERROR, message: `Unsupported Content-Encoding: ${encoding}` };
  }
  return undefined;
}

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

function tooLarge(limit: number): BodyRefusal {
  return {
    status: 413,
    code: HttpRpcError.SERVER_ERROR,
    message: `Payload Too Large: request body must not exceed ${limit} bytes`,
  };
}

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
    const onError = () =>
      finish({ status: 400, code: HttpRpcError.SERVER_ERROR, message: 'Bad Request: the request body was cut off' });
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
    const refused = refuseByHeaders(req);
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
      try {
        req.body = raw.length === 0 ? undefined : JSON.parse(raw.toString('utf8'));
      } catch {
        return answer({ status: 400, code: HttpRpcError.PARSE_ERROR, message: 'Parse error: Invalid JSON' });
      }
      if (req.body === undefined) {
        return answer({ status: 400, code: HttpRpcError.PARSE_ERROR, message: 'Parse error: empty request body' });
      }
      // Valid JSON that is not a JSON-RPC message (or a batch) is -32600, not -32700 (JSON-RPC 2.0 section 5.1).
      const checked = checkJsonRpcMessage(req.body);
      if ('refusal' in checked) return sendRpcRefusal(res, 400, checked.refusal);
      next();
    }, next);
  };
}
