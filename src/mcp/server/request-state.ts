import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { nodeCrypto } from '../../lazy-module.js';
import type { InputState } from '../context/input-rounds.js';

/** Binds a sealed `requestState` to the method and the authenticated client that minted it. */
const bind = (ctx: ServerContext) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`;

/**
 * The codec sealing the 2026-07-28 multi-round-trip `requestState` (HMAC-SHA-256, the SDK's
 * `createRequestStateCodec`). With a key given it is made at once, so a short key fails at
 * construction (RangeError); without one it is made on first use with 32 random bytes, because
 * the SDK reaches for Web Crypto when it makes a codec (about 3 ms of start-up, bench W0) and
 * most servers never mint a `requestState`.
 */
export function requestStateCodec(key: Uint8Array | string | undefined): RequestStateCodec<InputState> {
  if (key !== undefined) return createRequestStateCodec<InputState>({ key, bind });
  let codec: RequestStateCodec<InputState> | undefined;
  const made = () => (codec ??= createRequestStateCodec<InputState>({ key: nodeCrypto().randomBytes(32), bind }));
  return {
    mint: (payload, ctx) => made().mint(payload, ctx),
    verify: (state, ctx) => made().verify(state, ctx),
  };
}
