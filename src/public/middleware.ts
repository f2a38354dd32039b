/**
 * `mcp-toolkit/middleware`: built-in middleware for `server.use()` (see docs/middleware.md): rate
 * limits, a response cache, an audit log and OpenTelemetry, plus `RateLimitedError`. The middleware
 * types themselves are in `mcp-toolkit/types`.
 */
export { rateLimit, type RateLimitBudget, type RateLimitOptions } from '../middleware/rate-limit.js';
export { responseCache, type ResponseCacheOptions } from '../middleware/response-cache.js';
export { auditLog, type AuditEntry, type AuditLogOptions } from '../middleware/audit-log.js';
export { openTelemetry, type OpenTelemetryOptions } from '../middleware/open-telemetry.js';
export { clientKey, principalKey, type ClientKeyKind } from '../middleware/client-key.js';
export { RATE_LIMITED_ERROR_CODE, RateLimitedError } from '../errors.js';
