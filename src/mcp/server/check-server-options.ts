// The argument checks every server class runs first: the server info, the options object, its keys
// and the values of the options all servers share. Each class passes its own option keys, so a
// misplaced or misspelled option is named with the class.
import { InvalidOptionsError } from '../../errors.js';
import { assertKnownOptions, optionKeys } from '../../known-options.js';
import {
  anyOf,
  checkOptionsObject,
  checkOptionValues,
  checkValue,
  countRule,
  FUNCTION,
  msRule,
  numberRule,
  describeValue,
  OBJECT,
  valueRule,
  withMethods,
  type ValueRules,
} from '../../option-values.js';
import { checkServerInfo } from './server-info.js';
import type { BaseMcpServerOptions } from './server-options.js';
import type { TaskOptions } from '../../tasks/engine/server-tasks.js';

const BASE_RULES: ValueRules<BaseMcpServerOptions> = {
  logger: withMethods('a logger', ['debug', 'info', 'warn', 'error', 'child']),
  documents: withMethods('a DocumentStore', ['registerFolder', 'registerDocument', 'read']),
  sessionTools: anyOf(FUNCTION, withMethods('a tool-set factory', ['create'])),
  requestStateKey: valueRule(
    'a string or Uint8Array of at least 32 bytes',
    (v) => (typeof v === 'string' ? new TextEncoder().encode(v) : v instanceof Uint8Array ? v : []).length >= 32,
  ),
  resourcePageSize: countRule(1),
  cluster: withMethods('a cluster membership (from createCluster())', ['close']),
  toolState: withMethods('a tool-state store', ['load', 'save']),
  tasks: OBJECT,
  observer: OBJECT,
  defaultToolTimeoutMs: msRule(false),
};

const TASK_KEYS = optionKeys<TaskOptions>()([
  'store',
  'defaultTtlMs',
  'maxTtlMs',
  'pollIntervalMs',
  'resultRetentionMs',
  'maxTasksPerPrincipal',
  'maxTasks',
  'taskAfterMs',
  'sweepIntervalMs',
]);

const atLeastOneMs = numberRule({ min: 1, unit: 'milliseconds' });
const TASK_RULES: ValueRules<TaskOptions> = {
  store: OBJECT,
  defaultTtlMs: atLeastOneMs,
  maxTtlMs: msRule(true),
  pollIntervalMs: atLeastOneMs,
  resultRetentionMs: msRule(true),
  maxTasksPerPrincipal: countRule(1),
  maxTasks: countRule(1),
  taskAfterMs: msRule(true),
  sweepIntervalMs: msRule(true),
};

/**
 * Checks a server constructor's arguments before anything is built from them.
 * @param owner - the server class as messages name it (`HttpMcpServer`).
 * @param keys - every option key the class takes (unknown ones are refused); omit to skip that check
 *   (the base class, whose subclasses add keys).
 * @throws InvalidOptionsError for server info that is not `{ name, version, ... }` (or holds an option),
 *   options that are not an object, an unknown option key, or a shared option of the wrong type or range.
 */
export function checkServerArguments(
  owner: string,
  serverInfo: unknown,
  options: unknown,
  keys?: ReadonlySet<string>,
): asserts options is BaseMcpServerOptions | undefined {
  checkServerInfo(owner, serverInfo, keys ?? new Set());
  checkOptionsObject(owner, options);
  if (options === undefined) return;
  if (keys) assertKnownOptions(`${owner} option`, options, keys);
  const subject = `${owner} option`;
  const { requestStateKey: key, ...rest } = options as BaseMcpServerOptions;
  // The key itself is never put in a message.
  if (key !== undefined && !BASE_RULES.requestStateKey!.test(key)) {
    const bytes = typeof key === 'string' ? new TextEncoder().encode(key) : key;
    const { expected } = BASE_RULES.requestStateKey!;
    const received = bytes instanceof Uint8Array ? `a key of ${bytes.length} bytes` : describeValue(key);
    const message = `${subject} requestStateKey must be ${expected}, got ${received}.`;
    throw new InvalidOptionsError(subject, [], message, { option: 'requestStateKey', expected, received });
  }
  checkOptionValues(subject, rest, BASE_RULES);
  const { tasks } = options as BaseMcpServerOptions;
  if (tasks) {
    assertKnownOptions(`${owner} tasks option`, tasks, TASK_KEYS);
    checkOptionValues(subject, tasks, TASK_RULES, 'tasks.');
  }
  const { observer } = options as BaseMcpServerOptions;
  if (observer) {
    checkValue(subject, 'observer.onToolCall', observer.onToolCall, FUNCTION);
    checkValue(subject, 'observer.onResourceRead', observer.onResourceRead, FUNCTION);
  }
}
