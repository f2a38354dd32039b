import type { IncomingMessage } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/server';
import type { RequestHandler } from 'express';
import { checkJsonRpcMessage } from '../json-rpc-shape.js';
import { HttpRpcError, sendRpcError, sendRpcRefusal } from './responses.js';

/** Why a body was refused: the HTTP status and the JSON-RPC error to answer with. */
interface BodyRefusal {
  status: number;
  code: number;
  message: string;
}

const UTF8_CHARSET = /;\s*charset\s*=\s*"?(utf-?8)"?\s*(;|$)/i;
const ANY_CHARSET = /;\s*charset\s*=/i;

/** What a POST's headers say before any byte is read: a refusal, or undefined to read on. */
function refuseByHeaders(req: IncomingMessage, limit: number): BodyRefusal | undefined {
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
  if (Number(req.headers['content-length']) > limit) return tooLarge(limit);
  return undefined;
}

function tooLarge(limit: number): BodyRefusal {
  return {
    status: 413,
    code: HttpRpcError.SERVER_ERROR,
    message: `Payload Too Large: request body must not exceed ${limit} bytes`,
  };
}

/** Reads the whole body, stopping as soon as more than `limit` bytes arrived. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | BodyRefusal> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | BodyRefusal) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onError);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish(tooLarge(limit));
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
 * a compressed body, 413 for more than `limit` bytes (declared or received; the
 * connection is then closed), 400 `-32700 Parse error` for malformed JSON, 400 `-32600 Invalid
 * Request` for JSON that is not one JSON-RPC message (a batch, a fractional id, `_meta: null`;
 * with the request's id when it can be read, see `json-rpc-shape.ts`).
 *
 * A few lines instead of `express.json()`: the endpoint accepts exactly one media type,
 * and skipping body-parser's content negotiation, charset decoding and inflation
 * measurably lowers the per-call CPU of the dual-era router (see docs/http-server.md).
 */
export function jsonBody(limit: number): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const refused = refuseByHeaders(req, limit);
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
