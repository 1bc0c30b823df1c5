package sessions

import "github.com/redis/go-redis/v9"

// The Lua scripts read the stored JSON with cjson, relying on the field names
// "id", "status", "expires_ms", "version" and "op" of recordJSON and on the
// numeric values of StatusPending (1) and StatusFinished (3). Every key they
// touch is passed in KEYS and shares the channel's hash tag, so they run on a
// cluster.
//
// Redis keeps the writes a script made before an error, so every script
// checks all it depends on (the types of the keys, the fields it will
// increment) before its first write, and answers a problem with a reply
// code instead of an error: it does all of its writes or none.

// createScript stores a new record unless the channel has an active one.
//
//	KEYS[1] the record   ARGV[1] the JSON   ARGV[2] TTL in ms   ARGV[3] now in Unix ms
//	ARGV[4] the write token inside the JSON
//	KEYS[2] (optional) the request's nonce   ARGV[5] its TTL in ms
//
// It returns {1} when stored (or when the stored value carries this write's
// token: a resend of a Create that landed), {0, existing JSON} when busy,
// {3} when the nonce has been seen (a replayed request), and {-2, type} when
// the key holds something other than a string. An existing value that cjson
// cannot read counts as active: the caller reports it as corrupt.
var createScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t ~= 'none' and t ~= 'string' then return {-2, t} end
local cur = redis.call('GET', KEYS[1])
local r = nil
if cur then
  local ok, v = pcall(cjson.decode, cur)
  if ok and type(v) == 'table' then r = v end
end
if r and r['op'] == ARGV[4] then return {1} end
if KEYS[2] and redis.call('EXISTS', KEYS[2]) == 1 then return {3} end
if cur and r then
  local st = r['status']
  local exp = tonumber(r['expires_ms']) or 0
  if st == 3 or (st == 1 and exp > 0 and exp < tonumber(ARGV[3])) then
    cur = false
  end
end
if cur then return {0, cur} end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if KEYS[2] then redis.call('SET', KEYS[2], '1', 'PX', ARGV[5]) end
return {1}
`)

// casScript replaces the record if it is still the same game at the expected
// version, and adds the tally to the leaderboard (and, for a rated game, the
// ratings, rating histories and head-to-head record) in the same step.
//
//	KEYS[1] the record   KEYS[2] the leaderboard (a hash: w:<id>, l:<id>, d:<id> counts, n:<id> name)
//	KEYS[3] ratings (hash id → rating JSON)   KEYS[4] ratings by value (sorted set)
//	KEYS[5] rating histories (hash id → csv)  KEYS[6] head to head (hash of counts)
//	KEYS[7] the season's write counter       KEYS[8] (optional) the request's nonce
//	ARGV[1] expected version   ARGV[2] new JSON   ARGV[3] record TTL in ms   ARGV[4] write token
//	ARGV[5] tally: "" none, "w" win, "d" draw   ARGV[6..9] winner id, name, loser id, name
//	ARGV[10] leaderboard TTL in ms, ≤ 0 for none   ARGV[11] expected game id
//	ARGV[12] nonce TTL in ms   ARGV[13] "1" for a rated game
//	ARGV[14..15] the winner's and loser's stored ratings as read ("" for none)
//	ARGV[16..17] their new ratings   ARGV[18..19] the new ratings' values, for the sorted set
//	ARGV[20..21] their stored histories as read   ARGV[22..23] their new histories
//	ARGV[24] the head-to-head count to increment
//
// Replies:
//
//	{1}            written
//	{2}            the stored value already carries this write's token: a resend of a write
//	               that landed (go-redis retries a command whose reply was lost), which must
//	               not be applied, nor tallied, twice
//	{0, json}      another game or version is stored (or an unreadable value): the caller
//	               retries on json, or reports it as corrupt
//	{3}            the nonce has been seen: a replayed request, refused whole
//	{5}            a player's rating or history changed since the caller read it: read again
//	{-1}           the record is gone
//	{-2, type}     the record key holds a non-string
//	{-3, key}      a leaderboard or rating key holds the wrong type
//	{-4, field}    a count to increment is not a whole number
var casScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return {-1} end
if t ~= 'string' then return {-2, t} end
local cur = redis.call('GET', KEYS[1])
local ok, r = pcall(cjson.decode, cur)
if not ok or type(r) ~= 'table' then return {0, cur} end
if r['op'] == ARGV[4] then return {2} end
if KEYS[8] and redis.call('EXISTS', KEYS[8]) == 1 then return {3} end
if r['id'] ~= ARGV[11] or tonumber(r['version']) ~= tonumber(ARGV[1]) then return {0, cur} end
local kind = ARGV[5]
local rated = kind ~= '' and ARGV[13] == '1'
local counts = {}
if kind == 'w' then
  counts = {{2, 'w:' .. ARGV[6]}, {2, 'l:' .. ARGV[8]}}
elseif kind ~= '' then
  counts = {{2, 'd:' .. ARGV[6]}, {2, 'd:' .. ARGV[8]}}
end
if rated then table.insert(counts, {6, ARGV[24]}) end
if kind ~= '' then
  local want = {[2] = 'hash', [3] = 'hash', [4] = 'zset', [5] = 'hash', [6] = 'hash', [7] = 'string'}
  for i = 2, 7 do
    local kt = redis.call('TYPE', KEYS[i]).ok
    if kt ~= 'none' and kt ~= want[i] then return {-3, KEYS[i]} end
  end
  local gen = redis.call('GET', KEYS[7])
  if gen and not string.match(gen, '^%d+$') then return {-4, KEYS[7]} end
  for _, c in ipairs(counts) do
    local v = redis.call('HGET', KEYS[c[1]], c[2])
    if v and (#v > 15 or not string.match(v, '^%d+$')) then return {-4, c[2]} end
  end
  if rated then
    if (redis.call('HGET', KEYS[3], ARGV[6]) or '') ~= ARGV[14] or (redis.call('HGET', KEYS[3], ARGV[8]) or '') ~= ARGV[15] or
       (redis.call('HGET', KEYS[5], ARGV[6]) or '') ~= ARGV[20] or (redis.call('HGET', KEYS[5], ARGV[8]) or '') ~= ARGV[21] then
      return {5}
    end
  end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if KEYS[8] then redis.call('SET', KEYS[8], '1', 'PX', ARGV[12]) end
if kind ~= '' then
  for _, c in ipairs(counts) do redis.call('HINCRBY', KEYS[c[1]], c[2], 1) end
  redis.call('HSET', KEYS[2], 'n:' .. ARGV[6], ARGV[7], 'n:' .. ARGV[8], ARGV[9])
  redis.call('INCR', KEYS[7])
  local season = {2, 7}
  if rated then
    redis.call('HSET', KEYS[3], ARGV[6], ARGV[16], ARGV[8], ARGV[17])
    redis.call('ZADD', KEYS[4], ARGV[18], ARGV[6], ARGV[19], ARGV[8])
    redis.call('HSET', KEYS[5], ARGV[6], ARGV[22], ARGV[8], ARGV[23])
    season = {2, 3, 4, 5, 6, 7}
  end
  for _, i in ipairs(season) do
    if tonumber(ARGV[10]) > 0 then
      redis.call('PEXPIRE', KEYS[i], ARGV[10])
    else
      redis.call('PERSIST', KEYS[i])
    end
  end
end
return {1}
`)

// ratingsScript reads the top of a channel's ratings with what is shown
// beside them, in one round trip.
//
//	KEYS[1] ratings by value   KEYS[2] ratings   KEYS[3] the leaderboard   ARGV[1] how many
//
// It returns, per player from the highest rating down (ties in reverse id
// order), {id, rating JSON, wins, losses, draws, name}, with "" for what is
// missing.
var ratingsScript = redis.NewScript(`
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local out = {}
for _, id in ipairs(ids) do
  local f = redis.call('HMGET', KEYS[3], 'w:' .. id, 'l:' .. id, 'd:' .. id, 'n:' .. id)
  table.insert(out, {id, redis.call('HGET', KEYS[2], id) or '', f[1] or '', f[2] or '', f[3] or '', f[4] or ''})
end
return out
`)

// seasonScript archives the season the caller read and starts a new one, if
// nothing was tallied since the read.
//
//	KEYS[1] the season's write counter   KEYS[2] the archived seasons (a list, newest first)
//	KEYS[3..7] the leaderboard, ratings, ratings by value, histories, head to head
//	ARGV[1] the write counter as read ("" for none)   ARGV[2] the number of seasons as read
//	ARGV[3] the archive (JSON)
//
// It returns 1 when archived, 0 when a game was tallied (or a season
// archived) meanwhile, -3 when a key holds the wrong type.
var seasonScript = redis.NewScript(`
local gt = redis.call('TYPE', KEYS[1]).ok
local st = redis.call('TYPE', KEYS[2]).ok
if (gt ~= 'none' and gt ~= 'string') or (st ~= 'none' and st ~= 'list') then return -3 end
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[2]) then return 0 end
redis.call('LPUSH', KEYS[2], ARGV[3])
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7])
redis.call('INCR', KEYS[1])
return 1
`)

// deleteIfScript deletes the record key only if it still holds what the
// caller found damaged: a string equal to ARGV[2] when ARGV[1] is "string",
// else any value of type ARGV[1]. It returns 1 when deleted, 0 when the key
// changed meanwhile (a new game replaced the damaged one).
//
//	KEYS[1] the record   ARGV[1] the type found   ARGV[2] the value found (strings only)
var deleteIfScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t ~= ARGV[1] then return 0 end
if t == 'string' and redis.call('GET', KEYS[1]) ~= ARGV[2] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`)
