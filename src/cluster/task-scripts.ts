// Lua scripts of the Redis task store: each write checks, stores, indexes and publishes in one
// atomic step, so a record, its indexes and the change message never disagree.
//
// Keys: KEYS[1] the record (JSON string, expiring at `expiresAt`), KEYS[2] the owner's index
// (sorted set: score createdAt, member taskId, i.e. the list order), KEYS[3] the expiry index
// (score expiresAt, member JSON [taskId, owner]), KEYS[4] the change channel.

/**
 * CREATE: ARGV record JSON, taskId, createdAt, expiresAt ('' for never), expiry member, message,
 * runner (the process running the work), its replica id. KEYS[5] the runner's set of tasks,
 * KEYS[6] the hash of runners (runner -> replica id); both are read by the lease sweep.
 * 0 when the id exists.
 */
export const CREATE_TASK_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SADD', KEYS[5], ARGV[2])
redis.call('HSET', KEYS[6], ARGV[7], ARGV[8])
if ARGV[4] == '' then
  redis.call('SET', KEYS[1], ARGV[1])
else
  redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[4])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('PUBLISH', KEYS[4], ARGV[6])
return 1`;

/**
 * CAS (compare-and-set a changed record): ARGV expected version, record JSON, expiresAt ('' for
 * never), expiry member, message. Returns 'ok', 'gone' (no record) or 'conflict' (another
 * process changed it first: the caller re-reads and retries).
 */
export const CAS_TASK_SCRIPT = `
local current = redis.call('GET', KEYS[1])
if not current then return 'gone' end
if tostring(cjson.decode(current).version) ~= ARGV[1] then return 'conflict' end
if ARGV[3] == '' then
  redis.call('SET', KEYS[1], ARGV[2])
  redis.call('ZREM', KEYS[3], ARGV[4])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3])
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[4])
end
redis.call('PUBLISH', KEYS[4], ARGV[5])
return 'ok'`;

/**
 * EXPIRE one task: ARGV expiry member, taskId, message. Only the process whose ZREM removed the
 * expiry entry deletes the record and publishes, so a task expires once however many replicas
 * sweep. Returns 1 when this call expired it.
 */
export const EXPIRE_TASK_SCRIPT = `
if redis.call('ZREM', KEYS[3], ARGV[1]) == 0 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('PUBLISH', KEYS[4], ARGV[3])
return 1`;
