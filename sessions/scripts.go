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
// version, and adds the tally to the leaderboard in the same step.
//
//	KEYS[1] the record   KEYS[2] the leaderboard (a hash: w:<id>, l:<id>, d:<id> counts, n:<id> name)
//	ARGV[1] expected version   ARGV[2] new JSON   ARGV[3] record TTL in ms   ARGV[4] write token
//	ARGV[5] tally: "" none, "w" win, "d" draw   ARGV[6..9] winner id, name, loser id, name
//	ARGV[10] leaderboard TTL in ms, ≤ 0 for none   ARGV[11] expected game id
//	KEYS[3] (optional) the request's nonce   ARGV[12] its TTL in ms
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
//	{-1}           the record is gone
//	{-2, type}     the record key holds a non-string
//	{-3, type}     the leaderboard key holds a non-hash
//	{-4, field}    a leaderboard count to increment is not a whole number
var casScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return {-1} end
if t ~= 'string' then return {-2, t} end
local cur = redis.call('GET', KEYS[1])
local ok, r = pcall(cjson.decode, cur)
if not ok or type(r) ~= 'table' then return {0, cur} end
if r['op'] == ARGV[4] then return {2} end
if KEYS[3] and redis.call('EXISTS', KEYS[3]) == 1 then return {3} end
if r['id'] ~= ARGV[11] or tonumber(r['version']) ~= tonumber(ARGV[1]) then return {0, cur} end
local kind = ARGV[5]
local counts = {}
if kind == 'w' then
  counts = {'w:' .. ARGV[6], 'l:' .. ARGV[8]}
elseif kind ~= '' then
  counts = {'d:' .. ARGV[6], 'd:' .. ARGV[8]}
end
if kind ~= '' then
  local lt = redis.call('TYPE', KEYS[2]).ok
  if lt ~= 'none' and lt ~= 'hash' then return {-3, lt} end
  for _, f in ipairs(counts) do
    local v = redis.call('HGET', KEYS[2], f)
    if v and (#v > 15 or not string.match(v, '^%d+$')) then return {-4, f} end
  end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if KEYS[3] then redis.call('SET', KEYS[3], '1', 'PX', ARGV[12]) end
if kind ~= '' then
  for _, f in ipairs(counts) do redis.call('HINCRBY', KEYS[2], f, 1) end
  redis.call('HSET', KEYS[2], 'n:' .. ARGV[6], ARGV[7], 'n:' .. ARGV[8], ARGV[9])
  if tonumber(ARGV[10]) > 0 then
    redis.call('PEXPIRE', KEYS[2], ARGV[10])
  else
    redis.call('PERSIST', KEYS[2])
  end
end
return {1}
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
