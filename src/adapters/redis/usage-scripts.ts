/**
 * Lua scripts of the Redis quota counters. Redis runs a script alone, so each check-and-count is
 * atomic under any number of concurrent requests and API servers. Same rules as the SQLite adapter
 * (src/adapters/sqlite-access/usage-counters.ts).
 *
 * Keys of one account (three in all, whatever the traffic; each with a TTL, so an idle account's
 * keys disappear by themselves):
 *   KEYS[1] day    ZSET listing id -> when it was counted (rolling daily window)
 *   KEYS[2] month  ZSET listing id -> when it was counted (billing period or rolling 30 days)
 *   KEYS[3] meta   HASH month window identity (mkind, mstart), request day (rstart) and its count (reqs)
 * Common ARGV: now, day window ms, month kind ('' | 'rolling' | 'period'), month start, month ms
 * (rolling: window length; period: time left until its end), request day start, time left in it.
 */

const PRELUDE = `
local day, month, meta = KEYS[1], KEYS[2], KEYS[3]
local now = tonumber(ARGV[1])
local dayMs = tonumber(ARGV[2])
local monthKind, monthStart, monthMs = ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local requestStart, requestMs = tonumber(ARGV[6]), tonumber(ARGV[7])

redis.call('ZREMRANGEBYSCORE', day, '-inf', now - dayMs)
-- A month window only rolls forward (see monthWindowTag in src/core/ports/access-store.ts).
local storedKind = redis.call('HGET', meta, 'mkind')
local storedStart = tonumber(redis.call('HGET', meta, 'mstart') or '-1')
if storedKind ~= monthKind or monthStart > storedStart then
  redis.call('DEL', month)
  redis.call('HSET', meta, 'mkind', monthKind, 'mstart', monthStart)
end
if monthKind == 'rolling' then
  redis.call('ZREMRANGEBYSCORE', month, '-inf', now - monthMs)
end
if requestStart > tonumber(redis.call('HGET', meta, 'rstart') or '-1') then
  redis.call('HSET', meta, 'rstart', requestStart, 'reqs', 0)
end

local function oldest(key)
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return first[2] or ''
end

local function itemRefusal(dayLimit, monthLimit)
  if monthKind ~= '' and monthLimit ~= '' and redis.call('ZCARD', month) >= tonumber(monthLimit) then return 'month' end
  if redis.call('ZCARD', day) >= tonumber(dayLimit) then return 'day' end
  return ''
end

-- Every call pushes the expiry of what it touched: nothing outlives its window once the account is idle.
local function finish(refused, added)
  redis.call('PEXPIRE', day, dayMs)
  if monthKind ~= '' then redis.call('PEXPIRE', month, monthMs) end
  redis.call('PEXPIRE', meta, math.max(dayMs, monthMs, requestMs))
  return { refused, added, tonumber(redis.call('HGET', meta, 'reqs')), redis.call('ZCARD', day), oldest(day),
    redis.call('ZCARD', month), oldest(month) }
end
`;

/** ARGV[8] request limit ('' = none), ARGV[9] daily listing limit ('' = no listing check), ARGV[10] monthly one ('' = none), ARGV[11] take ('1'/'0'). */
export const ADMIT_SCRIPT = `${PRELUDE}
local refused = ''
if ARGV[9] ~= '' then refused = itemRefusal(ARGV[9], ARGV[10]) end
if refused == '' and ARGV[8] ~= '' and tonumber(redis.call('HGET', meta, 'reqs')) >= tonumber(ARGV[8]) then refused = 'requests' end
if refused == '' and ARGV[11] == '1' then redis.call('HINCRBY', meta, 'reqs', 1) end
return finish(refused, 0)
`;

/**
 * ARGV[8] daily listing limit, ARGV[9] monthly one ('' = none), ARGV[10..] listing ids.
 * Counts nothing when a quota is already full; otherwise counts the ids new to the monthly window
 * (to the daily one for legacy accounts): a re-delivery costs nothing, daily quota included.
 */
export const CONSUME_SCRIPT = `${PRELUDE}
local refused = itemRefusal(ARGV[8], ARGV[9])
local added = 0
if refused == '' then
  for i = 10, #ARGV do
    if monthKind ~= '' then
      if redis.call('ZADD', month, 'NX', now, ARGV[i]) == 1 then
        added = added + 1
        redis.call('ZADD', day, 'NX', now, ARGV[i])
      end
    else
      added = added + redis.call('ZADD', day, 'NX', now, ARGV[i])
    end
  end
end
return finish(refused, added)
`;

/** Reply of both scripts: refusal ('' = none), ids added, then the snapshot. */
export type UsageReply = [string, number, number, number, string, number, string];
