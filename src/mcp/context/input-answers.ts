import { UserError } from '../../errors.js';
import { compileSchema, type CompiledSchema } from '../../registry/schema.js';
import type { ElicitOptions } from '../../registry/tool-context.js';
import { isPlainObject as isObject } from '../wire/plain-object.js';

/** What a server-to-client request asks for, which decides its default key and its answer's shape. */
export type InputKind = 'elicit' | 'sample' | 'roots';

/**
 * How many wrong answers to one request the server sits through before giving up, where it is
 * the server that asks again (the legacy era's `elicitation/create`, a task's input request). On
 * 2026-07-28 the client retries, and bounds its own rounds (the v2 SDK client: 10).
 */
export const MAX_INPUT_ATTEMPTS = 10;

/** Whether a client's answer has the shape of the result its request asked for. */
const ANSWER_SHAPE: Record<InputKind, (answer: unknown) => boolean> = {
  elicit: (answer) => isObject(answer) && ['accept', 'decline', 'cancel'].includes(answer.action as string),
  sample: (answer) => isObject(answer) && typeof answer.content === 'object' && answer.content !== null,
  roots: (answer) => isObject(answer) && Array.isArray(answer.roots),
};

/** The requested schemas compiled once per schema object (a tool usually passes the same one each call). */
const compiled = new WeakMap<object, CompiledSchema>();

function validator(schema: ElicitOptions['requestedSchema']): CompiledSchema {
  let found = compiled.get(schema);
  if (!found) compiled.set(schema, (found = compileSchema(schema as never, 'requestedSchema')));
  return found;
}

/**
 * Why a client's answer does not count as an answer to its request, or undefined when it does.
 * The same check on both eras (MCP 2025-11-25 "Elicitation": an accepted form's content must
 * match `requestedSchema`; the 2026-07-28 `inputResponses` and `tasks/update` answers likewise):
 * the answer must have the result's shape, and an elicitation's `accept` must carry content (an
 * absent one counts as `{}`) that passes `requestedSchema`. `decline` and `cancel` always count.
 * A Promise only for an asynchronous Standard Schema.
 */
export function inputAnswerProblem(
  kind: InputKind,
  answer: unknown,
  requestedSchema?: ElicitOptions['requestedSchema'],
): string | undefined | Promise<string | undefined> {
  if (!ANSWER_SHAPE[kind](answer)) return `the answer is not a ${kind} result`;
  if (kind !== 'elicit' || requestedSchema === undefined) return undefined;
  const { action, content } = answer as { action: string; content?: unknown };
  if (action !== 'accept') return undefined;
  if (content !== undefined && !isObject(content)) return 'the accepted content is not an object';
  const checked = validator(requestedSchema).validate(content ?? {});
  const problem = (result: Awaited<typeof checked>) =>
    result.ok ? undefined : `the accepted content does not match requestedSchema: ${result.issues.join('; ')}`;
  return checked instanceof Promise ? checked.then(problem) : problem(checked);
}

/** Thrown out of `elicit`/`sample`/`listRoots` after {@link MAX_INPUT_ATTEMPTS} wrong answers. */
export function tooManyWrongAnswers(key: string, problem: string): UserError {
  return new UserError(
    `The client answered input request "${key}" ${MAX_INPUT_ATTEMPTS} times with an answer that does not fit it ` +
      `(last: ${problem}); giving up.`,
  );
}
