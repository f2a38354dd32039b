import {
  inputRequired,
  type InputRequest,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';

/** Answers gathered so far in a 2026-07-28 multi-round-trip flow, keyed `elicit-1`, `sample-2`, ... */
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
 * One execution's view of the multi-round-trip flow. Each `elicit`/`sample` call gets
 * an ordinal key; answers from earlier rounds travel in the HMAC-sealed `requestState`,
 * the current round's in `inputResponses`.
 */
export class InputRounds {
  #ordinal = 0;

  private constructor(private readonly answers: InputAnswers) {}

  /** Reads the answers of earlier rounds (verified `requestState`) and this round's `inputResponses`. */
  static fromContext(ctx: ServerContext): InputRounds {
    const state = ctx.mcpReq.requestState<InputState | string>();
    const prior = state && typeof state === 'object' ? state.answers : {};
    return new InputRounds({ ...prior, ...(ctx.mcpReq.inputResponses ?? {}) });
  }

  /** The answer to the next request of this kind, or throws {@link InputNeeded} to ask for it. */
  next<T>(kind: 'elicit' | 'sample', build: () => InputRequest): T {
    this.#ordinal += 1;
    const key = `${kind}-${this.#ordinal}`;
    if (Object.hasOwn(this.answers, key)) return this.answers[key] as T;
    throw new InputNeeded(key, build());
  }

  /** The `input_required` result asking for `needed`, carrying every answer so far. */
  async toResult(needed: InputNeeded, codec: RequestStateCodec<InputState>, ctx: ServerContext) {
    return inputRequired({
      inputRequests: { [needed.key]: needed.request },
      requestState: await codec.mint({ answers: this.answers }, ctx),
    });
  }
}
