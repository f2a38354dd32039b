// The Lua script of the Redis tool-state store: it runs atomically in Redis, so the stored
// state, its version and the published message never disagree.
//
// The state is a hash {entries, disabled, version, savedAt, origin}. `entries` is a JSON object
// of one *intent* per tool name ever toggled: name -> [disabled (1|0), stamp, origin], where
// `stamp` is the intent's hybrid-logical time (ms since the epoch, raised past every stamp the
// writer had seen) and `origin` the replica that made it. `disabled` is the derived sorted
// list of names whose intent is 1. `overrides` is a JSON object of one override record per tool
// name ever overridden: name -> [override object or null (cleared), stamp, origin], merged by the
// same rule. Every write publishes
// {"by", "version", "savedAt", "origin", "disabled", "entries", "overrides"} on the store's channel.

/**
 * MERGE: KEYS[1] state hash, KEYS[2] channel; ARGV entries JSON (the writer's intents), floor
 * version (the highest the writer has seen or used offline), savedAt, origin, by, override
 * records JSON (optional).
 *
 * Per tool name the newer intent wins: higher stamp, then higher origin. Merging is
 * commutative and idempotent, so every replica may send everything it knows (after an outage,
 * after Redis restarted empty) and the result is the same whatever the order: no acknowledged
 * change is lost unless a later change of the same tool replaced it.
 *
 * When the merge changed the stored entries (or nothing was stored, or the writer used a higher
 * version offline), the version becomes one above both the stored one and `floor`, and the
 * state is written and published. A hash written
 * by an older version of this store (no `entries`) is read as intents of stamp 0.
 * Returns {version, disabled JSON, entries JSON, changed (1|0), override records JSON}.
 */
export const MERGE_SCRIPT = `
local cur = redis.call('HMGET', KEYS[1], 'entries', 'version', 'disabled', 'overrides')
local entries = {}
if cur[1] then
  entries = cjson.decode(cur[1])
elseif cur[3] then
  for _, name in ipairs(cjson.decode(cur[3])) do entries[name] = {1, 0, ''} end
end
local v = tonumber(cur[2] or '0')
local changed = not cur[2]
for name, e in pairs(cjson.decode(ARGV[1])) do
  local c = entries[name]
  if not c or e[2] > c[2] or (e[2] == c[2] and e[3] > c[3]) then
    if not c or c[1] ~= e[1] or c[2] ~= e[2] or c[3] ~= e[3] then changed = true end
    entries[name] = e
  end
end
local ov = {}
if cur[4] then ov = cjson.decode(cur[4]) end
if ARGV[6] then
  for name, e in pairs(cjson.decode(ARGV[6])) do
    local c = ov[name]
    if not c or e[2] > c[2] or (e[2] == c[2] and e[3] > c[3]) then
      changed = true
      ov[name] = e
    end
  end
end
local oj = '{}'
if next(ov) ~= nil then oj = cjson.encode(ov) end
local names = {}
for name, e in pairs(entries) do if e[1] == 1 then names[#names + 1] = name end end
table.sort(names)
local d = '[]'
if #names > 0 then d = cjson.encode(names) end
local ej = '{}'
if next(entries) ~= nil then ej = cjson.encode(entries) end
local floor = tonumber(ARGV[2])
if not changed and floor <= v then return {v, d, ej, 0, oj} end
if floor > v then v = floor end
v = v + 1
local s, o = ARGV[3], ARGV[4]
redis.call('HSET', KEYS[1], 'entries', ej, 'disabled', d, 'version', v, 'savedAt', s, 'origin', o, 'overrides', oj)
redis.call('PUBLISH', KEYS[2], '{"by":' .. cjson.encode(ARGV[5]) .. ',"version":' .. v .. ',"savedAt":' .. s ..
  ',"origin":' .. cjson.encode(o) .. ',"disabled":' .. d .. ',"entries":' .. ej .. ',"overrides":' .. oj .. '}')
return {v, d, ej, 1, oj}`;
