import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  type InputRequest,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { InputUnavailableError } from '../../errors.js';
import { isPlainObject as isObject } from '../wire/plain-object.js';

/** Answers gathered so far in a 2026-07-28 multi-round-trip flow, keyed like their requests (`elicit-1`, ...). */
export type InputAnswers = Record<string, unknown>;

/** The sealed `requestState` payload: every answer from earlier rounds. */
export interface InputState {
  answers: InputAnswers;
}

/** What a server-to-client request asks for, which decides its default key and its answer's shape. */
export type InputKind = 'elicit' | 'sample' | 'roots';

/**
 * Thrown out of `execute()` on the 2026-07-28 era when a tool asks for input that has
 * not been answered yet; the call then returns an `input_required` result and the
 * client retries with the answer (MCP 2026-07-28 "multi-round-trip requests").
 */
export class InputNeeded extends Error {
  constructor(
    readonly key: string,
    readonly request: InputRequest,
  ) {
    super(`input required: ${key}`);
  }
}

/** Whether a client's answer has the shape of the result its request asked for. */
const ANSWER_SHAPE: Record<InputKind, (answer: unknown) => boolean> = {
  elicit: (answer) => isObject(answer) && ['accept', 'decline', 'cancel'].includes(answer.action as string),
  sample: (answer) => isObject(answer) && typeof answer.content === 'object' && answer.content !== null,
  roots: (answer) => isObject(answer) && Array.isArray(answer.roots),
};

/**
 * One execution's view of the multi-round-trip flow. Each `elicit`/`sample`/`listRoots`
 * call has a key (given, or an ordinal one); answers from earlier rounds travel in the
 * HMAC-sealed `requestState`, the current round's in `inputResponses`. Every request
 * still unanswered in this execution is asked at once, so requests started together
 * (`Promise.all`) share one round.
 */
export class InputRounds {
  #ordinal = 0;
  /** Answers this execution used: what the next round's state carries (unknown keys are dropped). */
  readonly #used: InputAnswers = {};
  readonly #pending = new Map<string, InputRequest>();

  private constructor(private readonly answers: InputAnswers) {}

  /** Reads the answers of earlier rounds (verified `requestState`) and this round's `inputResponses`. */
  static fromContext(ctx: ServerContext): InputRounds {
    const state = ctx.mcpReq.requestState<InputState | string>();
    const prior = state && typeof state === 'object' ? state.answers : {};
    return new InputRounds({ ...prior, ...(ctx.mcpReq.inputResponses ?? {}) });
  }

  /**
   * The answer to this request, or throws {@link InputNeeded} to ask for it. An answer whose
   * shape does not fit the request (e.g. a number for an elicitation) counts as missing.
   */
  next<T>(kind: InputKind, build: () => InputRequest, key?: string): T {
    this.#ordinal += 1;
    const name = key ?? `${kind}-${this.#ordinal}`;
    const answer = Object.hasOwn(this.answers, name) ? this.answers[name] : undefined;
    if (answer !== undefined && ANSWER_SHAPE[kind](answer)) {
      this.#used[name] = answer;
      return answer as T;
    }
    const request = build();
    this.#pending.set(name, request);
    throw new InputNeeded(name, request);
  }

  /** The `input_required` result asking for every request still pending, carrying the answers used so far. */
  async toResult(needed: InputNeeded, codec: RequestStateCodec<InputState>, ctx: ServerContext) {
    const inputRequests = this.#pending.size > 0 ? Object.fromEntries(this.#pending) : { [needed.key]: needed.request };
    return inputRequired({
      inputRequests,
      requestState: await codec.mint({ answers: this.#used }, ctx),
    });
  }
}

/**
 * What an error escaping a handler means on the 2026-07-28 era (`rounds` set): an unanswered
 * request becomes the `input_required` result (returned); a missing client capability becomes
 * JSON-RPC -32021 MissingRequiredClientCapabilityError (thrown; HTTP 400). Otherwise, and on the
 * legacy era, `undefined`: the caller handles the error as usual.
 */
export async function inputRoundOutcome(
  error: unknown,
  rounds: InputRounds | undefined,
  codec: RequestStateCodec<InputState>,
  ctx: ServerContext,
) {
  if (!rounds) return undefined;
  if (error instanceof InputUnavailableError && error.capability) {
    throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { [error.capability]: {} } }, error.message);
  }
  return error instanceof InputNeeded ? rounds.toResult(error, codec, ctx) : undefined;
}
