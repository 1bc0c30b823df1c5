package sessions

import "github.com/redis/go-redis/v9"

// The Lua scripts read the stored JSON with cjson, relying on the field names
// "status", "expires_ms", "version" and "op" of recordJSON and on the numeric
// values of StatusPending (1) and StatusFinished (3). Every key they touch is
// passed in KEYS and shares the channel's hash tag, so they run on a cluster.

// createScript stores a new record unless the channel has an active one.
//
//	KEYS[1] the record   ARGV[1] the JSON   ARGV[2] TTL in ms   ARGV[3] now in Unix ms
//	ARGV[4] the write token inside the JSON
//
// It returns {1} when stored (or when the stored value carries this write's
// token: a resend of a Create that landed), {0, existing JSON} when busy. An
// existing value that cjson cannot read counts as active: the caller reports
// it as corrupt.
var createScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if cur then
  local ok, r = pcall(cjson.decode, cur)
  if ok and type(r) == 'table' then
    if r['op'] == ARGV[4] then return {1} end
    local st = r['status']
    local exp = tonumber(r['expires_ms']) or 0
    if st == 3 or (st == 1 and exp > 0 and exp < tonumber(ARGV[3])) then
      cur = false
    end
  end
  if cur then return {0, cur} end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return {1}
`)

// casScript replaces the record if it still has the expected version and adds
// the tally to the leaderboard in the same step.
//
//	KEYS[1] the record   KEYS[2] the leaderboard (a hash: w:<id>, l:<id>, d:<id> counts, n:<id> name)
//	ARGV[1] expected version   ARGV[2] new JSON   ARGV[3] record TTL in ms   ARGV[4] write token
//	ARGV[5] tally: "" none, "w" win, "d" draw   ARGV[6..9] winner id, name, loser id, name
//	ARGV[10] leaderboard TTL in ms, ≤ 0 for none
//
// It returns 1 when written, 0 on a version mismatch (or an unreadable
// record: the caller reloads and reports it), -1 when the record is gone, and
// 2 when the stored value already carries this write's token: a resend of a
// write that landed (go-redis retries a command whose reply was lost), which
// must not be applied, nor tallied, twice.
var casScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if not cur then return -1 end
local ok, r = pcall(cjson.decode, cur)
if not ok or type(r) ~= 'table' then return 0 end
if r['op'] == ARGV[4] then return 2 end
if tonumber(r['version']) ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
local kind = ARGV[5]
if kind ~= '' then
  if kind == 'w' then
    redis.call('HINCRBY', KEYS[2], 'w:' .. ARGV[6], 1)
    redis.call('HINCRBY', KEYS[2], 'l:' .. ARGV[8], 1)
  else
    redis.call('HINCRBY', KEYS[2], 'd:' .. ARGV[6], 1)
    redis.call('HINCRBY', KEYS[2], 'd:' .. ARGV[8], 1)
  end
  redis.call('HSET', KEYS[2], 'n:' .. ARGV[6], ARGV[7], 'n:' .. ARGV[8], ARGV[9])
  if tonumber(ARGV[10]) > 0 then
    redis.call('PEXPIRE', KEYS[2], ARGV[10])
  else
    redis.call('PERSIST', KEYS[2])
  end
end
return 1
`)
