import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/** One schema issue as the SDK's wire schemas (zod) report it. */
interface SchemaIssue {
  path: Array<string | number>;
  message: string;
}

/** At most this many issues are named in one message: the first ones say what to fix. */
const MAX_ISSUES = 3;

function schemaIssues(text: string): SchemaIssue[] | undefined {
  if (!text.startsWith('[')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
    const issues = parsed.filter(
      (issue): issue is SchemaIssue =>
        typeof issue === 'object' &&
        issue !== null &&
        Array.isArray((issue as SchemaIssue).path) &&
        typeof (issue as SchemaIssue).message === 'string',
    );
    return issues.length === parsed.length ? issues : undefined;
  } catch {
    return undefined;
  }
}

/** `params.level` -> `level`: the request's own fields, as a client wrote them. */
function fieldName(path: ReadonlyArray<string | number>): string {
  const inParams = path[0] === 'params' ? path.slice(1) : path;
  return inParams.length === 0 ? 'params' : inParams.join('.');
}

/** "Invalid params for logging/setLevel: level: Invalid option: expected one of ...". */
export function invalidParamsMessage(method: string, issues: readonly SchemaIssue[]): string {
  const named = issues.slice(0, MAX_ISSUES).map((issue) => `${fieldName(issue.path)}: ${issue.message}`);
  const more = issues.length > MAX_ISSUES ? ` (and ${issues.length - MAX_ISSUES} more)` : '';
  return `Invalid params for ${method}: ${named.join('; ')}${more}`;
}

const TOOLS_CALL_PREFIX = 'Invalid tools/call request: ';

/**
 * The JSON-RPC -32602 Invalid params error for a request the SDK's wire schema refused, or
 * undefined when `error` is something else.
 *
 * SDK 2.4 checks every spec request against the era's wire schema before the handler runs
 * and throws a plain `Error` whose message is the schema library's JSON issue dump (sent as
 * -32603 Internal error), or for `tools/call` a -32602 carrying that dump. Either becomes
 * -32602 with a short message naming each offending field (JSON-RPC 2.0 section 5.1: "Invalid
 * method parameter(s)"). An error of another shape passes unchanged, so an SDK that changes
 * its wording degrades to its own answer, never to a wrong code.
 */
export function invalidParamsError(method: string, error: unknown): ProtocolError | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error instanceof ProtocolError) {
    if (error.code !== ProtocolErrorCode.InvalidParams || !error.message.startsWith(TOOLS_CALL_PREFIX)) {
      return undefined;
    }
    const issues = schemaIssues(error.message.slice(TOOLS_CALL_PREFIX.length));
    return issues && new ProtocolError(ProtocolErrorCode.InvalidParams, invalidParamsMessage(method, issues));
  }
  if (Object.getPrototypeOf(error) !== Error.prototype) return undefined;
  const issues = schemaIssues(error.message);
  return issues && new ProtocolError(ProtocolErrorCode.InvalidParams, invalidParamsMessage(method, issues));
}
