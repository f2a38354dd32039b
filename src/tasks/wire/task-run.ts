import {
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type CreateMessageResult,
  type ElicitResult,
  type InputRequest,
  type ListRootsResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { InputUnavailableError, TaskError, ToolCallAbortedError, type ClientInputCapability } from '../../errors.js';
import type { Tool } from '../../registry/tool.js';
import type { ElicitOptions, ToolContext, ToolProgress } from '../../registry/tool-context.js';
import { errorToCallToolResult, toCallToolResult } from '../../registry/tool-result.js';
import type { RunningTask, TaskManager } from '../engine/task-manager.js';
import type { TaskErrorObject, TaskRecord } from '../store/task-store.js';
import {
  inputAnswerProblem,
  MAX_INPUT_ATTEMPTS,
  tooManyWrongAnswers,
  type InputKind,
} from '../../mcp/context/input-answers.js';
import { inputRoundOutcome, InputNeeded, InputRounds } from '../../mcp/context/input-rounds.js';
import { buildToolContext, declaresInput, wireSchema } from '../../mcp/context/tool-context-builder.js';
import { taskAnswer } from '../../mcp/sdk-internals/view-server.js';
import { checkOutput } from '../../mcp/view/tool-call.js';
import { extensionTask, legacyTask, taskOwner } from './task-wire.js';
import type { TaskCallDeps } from './task-call.js';

/** How the tool's run ended: a task's outcome, with the tool's result still typed as one. */
type CallOutcome =
  | { readonly status: 'completed'; readonly result: CallToolResult }
  | { readonly status: 'failed'; readonly error: TaskErrorObject };

/** One task-capable call: runs `execute`, becomes a task when the policy says so, stores the outcome. */
export class TaskCall {
  readonly #controller = new AbortController();
  readonly #rounds: InputRounds | undefined;
  #task: RunningTask | undefined;
  #inputOrdinal = 0;

  constructor(
    private readonly deps: TaskCallDeps,
    private readonly tool: Tool<never>,
    private readonly ctx: ServerContext,
    private readonly modern: boolean,
  ) {
    this.#rounds = modern ? InputRounds.fromContext(ctx) : undefined;
  }

  async start(args: unknown, requestedTtl: number | null | undefined) {
    const afterMs = this.modern ? (this.tool.taskAfterMs ?? this.deps.manager.policy.taskAfterMs) : 0;
    if (afterMs <= 0) {
      const created = await this.#create(requestedTtl);
      this.deps.manager.run(this.#task!, () => this.#execute(args));
      return this.#createResult(created);
    }
    // Run first; answer directly when the call ends (or asks for input) within `afterMs`.
    const upstream = this.ctx.mcpReq.signal;
    const onUpstream = () => {
      if (!this.#task) this.#controller.abort(new ToolCallAbortedError('cancelled', 'The client cancelled the call.'));
    };
    upstream.addEventListener('abort', onUpstream, { once: true });
    const execution = this.#execute(args);
    let timer: NodeJS.Timeout | undefined;
    const early = await Promise.race([
      execution.then(
        (outcome) => ({ outcome }),
        (error: unknown) => ({ error }),
      ),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), afterMs))),
    ]);
    clearTimeout(timer);
    if (early) {
      upstream.removeEventListener('abort', onUpstream);
      if ('error' in early) {
        const round = await inputRoundOutcome(early.error, this.#rounds, this.deps.requestState, this.ctx);
        if (round) return round;
        throw early.error;
      }
      if (early.outcome.status === 'failed') {
        const { code, message, data } = early.outcome.error;
        throw new ProtocolError(code, message, data);
      }
      return early.outcome.result;
    }
    let created: TaskRecord;
    try {
      created = await this.#create(requestedTtl);
    } catch (error) {
      this.#controller.abort(new ToolCallAbortedError('cancelled', 'The task could not be created.'));
      throw error;
    } finally {
      upstream.removeEventListener('abort', onUpstream);
    }
    this.deps.manager.run(this.#task!, () =>
      execution.catch((error: unknown): CallOutcome => ({ status: 'failed', error: protocolErrorObject(error) })),
    );
    return this.#createResult(created);
  }

  async #create(requestedTtl: number | null | undefined): Promise<TaskRecord> {
    let created: Awaited<ReturnType<TaskManager['create']>>;
    try {
      created = await this.deps.manager.create({
        owner: taskOwner(this.ctx, this.deps.viewId),
        toolName: this.tool.name,
        wire: this.modern ? 'extension' : 'legacy',
        requestedTtlMs: requestedTtl,
      });
    } catch (error) {
      if (error instanceof TaskError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
    this.#task = created.running;
    this.deps.onCreated?.(created.task);
    created.running.signal.addEventListener(
      'abort',
      () => this.#controller.abort(created.running.signal.reason as Error),
      { once: true },
    );
    return created.task;
  }

  #createResult(task: TaskRecord) {
    const handle = this.modern ? { resultType: 'task', ...extensionTask(task) } : { task: legacyTask(task) };
    return taskAnswer(handle);
  }

  /** Runs `execute` to an outcome; before the call became a task, input rounds and their errors escape. */
  async #execute(args: unknown): Promise<CallOutcome> {
    const { tool, deps, ctx } = this;
    const base = {
      name: tool.name,
      requestId: ctx.mcpReq.id,
      sessionId: ctx.sessionId,
      args: (args ?? {}) as Record<string, unknown>,
    };
    const started = performance.now();
    deps.events.safeEmit('toolCallStarted', base);
    const finish = (isError: boolean, error?: unknown, result?: CallToolResult) =>
      deps.events.safeEmit('toolCallFinished', {
        ...base,
        durationMs: performance.now() - started,
        isError,
        ...(result !== undefined && { result }),
        ...(error !== undefined && { error }),
      });
    let running: Promise<unknown> | undefined;
    const timer =
      tool.timeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              this.#controller.abort(
                new ToolCallAbortedError('timeout', `Tool "${tool.name}" timed out after ${tool.timeoutMs} ms.`),
              ),
            tool.timeoutMs,
          );
    try {
      const signal = this.#controller.signal;
      const aborted = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(signal.reason as Error);
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
      aborted.catch(() => {});
      // Validated by the tool's compiled input schema: an erased tool runs them as they are.
      const validated: Tool<unknown> = tool;
      const execution = Promise.resolve().then(() => validated.execute(args, this.#context()));
      running = execution;
      execution.then(
        () => (running = undefined),
        () => (running = undefined),
      );
      const returned = await Promise.race([execution, aborted]);
      let result = await checkOutput(tool, toCallToolResult(returned));
      result = deps.server.projectCallToolResult(result, tool.compiled().output?.json);
      finish(result.isError === true, undefined, result);
      return { status: 'completed', result };
    } catch (error) {
      if (!this.#task && (error instanceof InputNeeded || (this.modern && error instanceof InputUnavailableError))) {
        finish(false);
        throw error;
      }
      if (error instanceof ProtocolError) {
        finish(true, error);
        return { status: 'failed', error: protocolErrorObject(error) };
      }
      const result = errorToCallToolResult(tool.name, error);
      finish(true, error, result);
      return { status: 'completed', result };
    } finally {
      clearTimeout(timer);
      const reason: unknown = this.#controller.signal.reason;
      if (running && reason instanceof ToolCallAbortedError) {
        // The task ended without the tool: it ignored its signal and still runs (reported by stop()).
        deps.calls.abandoned.add(running, { toolName: tool.name, requestId: ctx.mcpReq.id, reason: reason.reason });
      }
    }
  }

  /** The tool's context: the ordinary one until the call is a task, then status messages and task input. */
  #context(): ToolContext {
    const base = buildToolContext(this.deps.server, this.ctx, this.#controller.signal, this.#rounds);
    const status = (message: string) => this.#task?.setStatusMessage(message);
    const log = Object.fromEntries(
      (['debug', 'info', 'warn', 'error'] as const).map((level) => [
        level,
        (message: string, data?: unknown) => {
          status(message);
          // The extension sends no log notifications for tasks (SEP-2663); 2025-11-25 may.
          if (!this.#task || !this.modern) base.log[level](message, data);
        },
      ]),
    ) as unknown as ToolContext['log'];
    return {
      ...base,
      signal: base.signal, // an accessor of the base context: spread copies own fields only
      log,
      reportProgress: async (progress: ToolProgress) => {
        status(progressText(progress));
        if (!this.#task || !this.modern) await base.reportProgress(progress);
      },
      elicit: (options) => {
        if (!this.#task) return base.elicit(options);
        this.#require('elicitation');
        const request = inputRequired.elicit({
          message: options.message,
          requestedSchema: wireSchema(options.requestedSchema),
        });
        return this.#ask<ElicitResult>('elicit', options.key, request, options.requestedSchema);
      },
      elicitUrl: (options) => {
        if (!this.#task) return base.elicitUrl(options);
        this.#require('elicitation.url');
        const request = inputRequired.elicitUrl({ message: options.message, url: options.url });
        return this.#ask<ElicitResult>('elicit', options.key, request);
      },
      completeUrlElicitation: (elicitationId) => base.completeUrlElicitation(elicitationId),
      sample: (params, options) => {
        if (!this.#task) return base.sample(params, options);
        this.#require('sampling');
        return this.#ask<CreateMessageResult>('sample', options?.key, inputRequired.createMessage(params));
      },
      listRoots: (options) => {
        if (!this.#task) return base.listRoots(options);
        this.#require('roots');
        return this.#ask<ListRootsResult>('roots', options?.key, inputRequired.listRoots());
      },
    };
  }

  #require(capability: ClientInputCapability): void {
    const base = buildToolContext(this.deps.server, this.ctx, this.#controller.signal, this.#rounds);
    if (!declaresInput(base.clientCapabilities, capability)) {
      throw new InputUnavailableError(
        `This tool needs the client's "${capability}" capability, which the connected client did not declare.`,
        capability,
      );
    }
  }

  /**
   * Parks the task until the client answers this request (2026-07-28 `tasks/update`, 2025-11-25
   * through `tasks/result`). An answer that does not fit (see `inputAnswerProblem`) counts as
   * none: the request is asked again, at most {@link MAX_INPUT_ATTEMPTS} times.
   */
  async #ask<T>(
    kind: InputKind,
    key: string | undefined,
    request: InputRequest,
    requestedSchema?: ElicitOptions['requestedSchema'],
  ): Promise<T> {
    this.#inputOrdinal += 1;
    const name = key ?? `${kind}-${this.#inputOrdinal}`;
    for (let attempt = 1; ; attempt += 1) {
      const answer = await this.#task!.requestInput(name, request);
      const problem = await inputAnswerProblem(kind, answer, requestedSchema);
      if (problem === undefined) return answer as T;
      if (attempt >= MAX_INPUT_ATTEMPTS) throw tooManyWrongAnswers(name, problem);
    }
  }
}

function progressText({ progress, total, message }: ToolProgress): string {
  if (message) return message;
  return total === undefined ? `Progress: ${progress}` : `Progress: ${progress}/${total}`;
}

/** A thrown error as a failed task's JSON-RPC error object. */
function protocolErrorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof ProtocolError) {
    return { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
  }
  return { code: ProtocolErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) };
}
