/**
 * `mcp-toolkit/admin`: the admin REST + Server-Sent Events router and its settings page
 * (docs/settings.md). Mount `adminRouter(server, options)` on an express app; it uses the server's
 * public methods and events only.
 */
export { adminRouter } from '../admin/admin-router.js';
export type { AdminRouterOptions, AdminAuthenticate, AdminServer } from '../admin/admin-options.js';
export type { AdminErrorCode } from '../admin/admin-errors.js';
export type { ToolCallStatistics, TimelinePoint } from '../admin/tool-call-stats.js';
