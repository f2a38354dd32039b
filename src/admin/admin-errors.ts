import type { Response } from 'express';

/** Stable codes of the admin API's error bodies (`{"error":{"code","message"}}`). */
export type AdminErrorCode =
  | 'BAD_JSON'
  | 'INVALID_REQUEST'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN_REMOTE'
  | 'FORBIDDEN_HOST'
  | 'FORBIDDEN_ORIGIN'
  | 'TOOL_NOT_FOUND'
  | 'INVALID_OVERRIDE'
  | 'OVERRIDE_CONFLICT'
  | 'SESSION_NOT_FOUND'
  | 'NOT_FOUND'
  | 'CLUSTER_UNAVAILABLE'
  | 'INTERNAL';

/** Answers `status` with `{"error":{"code","message"}}` (no-store); does nothing after headers went out. */
export function sendAdminError(
  res: Response,
  status: number,
  code: AdminErrorCode,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  res
    .status(status)
    .set({ 'Cache-Control': 'no-store', ...headers })
    .json({ error: { code, message } });
}
