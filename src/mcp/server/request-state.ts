import { createRequestStateCodec, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import type { InputState } from '../context/input-rounds.js';
import type { RequestStateKeys } from '../../state/cluster-membership.js';

/** Binds a sealed `requestState` to the method and the authenticated client that minted it. */
const bind = (ctx: ServerContext) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`;

/**
 * The codec sealing the 2026-07-28 multi-round-trip `requestState` (HMAC-SHA-256, the SDK's
 * `createRequestStateCodec`). With a key given it is made at once, so a short key fails at
 * construction (InvalidOptionsError, checked with the server options); without one it is made on first use with 32 random bytes, because
 * the SDK reaches for Web Crypto when it makes a codec (about 3 ms of start-up, bench W0) and
 * most servers never mint a `requestState`.
 */
export function requestStateCodec(
  key: Uint8Array | string | RequestStateKeys | undefined,
): RequestStateCodec<InputState> {
  if (typeof key === 'object' && 'current' in key) return keyringCodec(key);
  if (key !== undefined) return createRequestStateCodec<InputState>({ key, bind });
  let codec: RequestStateCodec<InputState> | undefined;
  const made = () =>
    (codec ??= createRequestStateCodec<InputState>({ key: crypto.getRandomValues(new Uint8Array(32)), bind }));
  return {
    mint: (payload, ctx) => made().mint(payload, ctx),
    verify: (state, ctx) => made().verify(state, ctx),
  };
}

/** Seals with the ring's current key, accepts any of its keys (a cluster whose key changed). */
function keyringCodec(keys: RequestStateKeys): RequestStateCodec<InputState> {
  const codecs = new WeakMap<Uint8Array, RequestStateCodec<InputState>>();
  const codec = (key: Uint8Array) => {
    let made = codecs.get(key);
    if (!made) codecs.set(key, (made = createRequestStateCodec<InputState>({ key, bind })));
    return made;
  };
  return {
    mint: (payload, ctx) => codec(keys.current()).mint(payload, ctx),
    verify: async (state, ctx) => {
      let first: unknown;
      for (const key of keys.all()) {
        try {
          return await codec(key).verify(state, ctx);
        } catch (error) {
          first ??= error;
        }
      }
      throw first;
    },
  };
}
