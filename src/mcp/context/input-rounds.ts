import {
  inputRequired,
  MissingRequiredClientCapabilityError,
  type InputRequest,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { InputUnavailableError } from '../../errors.js';
import type { ElicitOptions } from '../../registry/tool-context.js';
import { inputAnswerProblem, type InputKind } from './input-answers.js';

export type { InputKind } from './input-answers.js';

/** Answers gathered so far in a 2026-07-28 multi-round-trip flow, keyed like their requests (`elicit-1`, ...). */
export type InputAnswers = Record<string, unknown>;

/** The sealed `requestState` payload: every answer from earlier rounds. */
export interface InputState {
  answers: InputAnswers;
}

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
   * The answer to this request, or throws {@link InputNeeded} to ask for it. An answer that does
   * not fit the request (see `inputAnswerProblem`: a number for an elicitation, accepted content
   * that fails `requestedSchema`) counts as missing: it is asked again. A Promise only when
   * `requestedSchema` validates asynchronously.
   */
  next<T>(
    kind: InputKind,
    build: () => InputRequest,
    key?: string,
    requestedSchema?: ElicitOptions['requestedSchema'],
  ): T | Promise<T> {
    this.#ordinal += 1;
    const name = key ?? `${kind}-${this.#ordinal}`;
    const answer = Object.hasOwn(this.answers, name) ? this.answers[name] : undefined;
    const settle = (problem: string | undefined): T => {
      if (answer === undefined || problem !== undefined) {
        const request = build();
        this.#pending.set(name, request);
        throw new InputNeeded(name, request);
      }
      this.#used[name] = answer;
      return answer as T;
    };
    if (answer === undefined) return settle(undefined);
    const problem = inputAnswerProblem(kind, answer, requestedSchema);
    return problem instanceof Promise ? problem.then(settle) : settle(problem);
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
    const required = error.capability === 'elicitation.url' ? { elicitation: { url: {} } } : { [error.capability]: {} };
    throw new MissingRequiredClientCapabilityError({ requiredCapabilities: required }, error.message);
  }
  return error instanceof InputNeeded ? rounds.toResult(error, codec, ctx) : undefined;
}
