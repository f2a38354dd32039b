// Lua scripts of the Redis tool-state store: each runs atomically in Redis, so the stored
// state, its version and the published message never disagree.
//
// The state is a hash {disabled (JSON array), version, savedAt, origin}; every write publishes
// {"by", "version", "savedAt", "origin", "disabled"} on the store's channel.

/** The message a write publishes (the same fields as the hash, plus who published it). */
const MESSAGE = `'{"by":' .. cjson.encode(ARGV[5]) .. ',"version":' .. v .. ',"savedAt":' .. s .. ',"origin":' .. cjson.encode(o) .. ',"disabled":' .. d .. '}'`;

/**
 * SAVE: KEYS[1] state hash, KEYS[2] channel; ARGV disabled JSON, floor version, savedAt, origin, by.
 * The new version is one above both the stored one and `floor` (the highest version the writer
 * has seen), so versions keep growing even when Redis restarted empty. Returns the version.
 */
export const SAVE_SCRIPT = `
local v = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local floor = tonumber(ARGV[2])
if floor > v then v = floor end
v = v + 1
local d, s, o = ARGV[1], ARGV[3], ARGV[4]
redis.call('HSET', KEYS[1], 'disabled', d, 'version', v, 'savedAt', s, 'origin', o)
redis.call('PUBLISH', KEYS[2], ${MESSAGE})
return v`;

/**
 * RECONCILE (after a reconnect): KEYS as SAVE; ARGV the replica's state disabled JSON, version,
 * savedAt, origin, by, weak ('1' when the replica never saw the cluster's state: it started while
 * Redis was down, so its state only fills an empty Redis). Last writer wins, ordered by
 * (version, savedAt, origin):
 * - nothing stored, or ours is newer: ours is written (at a version above the stored one) and
 *   published; returns {'ours', version};
 * - the stored state is newer (or ours is weak): returns {'theirs', version, disabled, savedAt,
 *   origin}; when its version is not above ours it is re-written one version above ours and
 *   published, so that every replica (ours included) sees a version above what it holds.
 * - the same state: {'same', version}.
 */
export const RECONCILE_SCRIPT = `
local cur = redis.call('HMGET', KEYS[1], 'disabled', 'version', 'savedAt', 'origin')
local mv, ms, mo, md = tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[1]
local d, v, s, o
if not cur[2] then
  d, v, s, o = md, mv, ms, mo
else
  local cd, cv, cs, co = cur[1], tonumber(cur[2]), tonumber(cur[3] or '0'), cur[4] or ''
  if cv == mv and cd == md then return {'same', cv} end
  local oursNewer = ARGV[6] ~= '1' and (mv > cv or (mv == cv and (ms > cs or (ms == cs and mo > co))))
  if not oursNewer then
    if cv > mv then return {'theirs', cv, cd, cs, co} end
    d, v, s, o = cd, mv + 1, cs, co
    redis.call('HSET', KEYS[1], 'version', v)
    redis.call('PUBLISH', KEYS[2], ${MESSAGE})
    return {'theirs', v, d, s, o}
  end
  d, s, o = md, ms, mo
  v = mv
  if cv >= mv then v = cv + 1 end
end
redis.call('HSET', KEYS[1], 'disabled', d, 'version', v, 'savedAt', s, 'origin', o)
redis.call('PUBLISH', KEYS[2], ${MESSAGE})
return {'ours', v}`;
