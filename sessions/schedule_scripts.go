package sessions

import "github.com/redis/go-redis/v9"

// The schedule's Lua. See schedule.go for the layout and why it is safe on
// a Cluster: every script here touches keys of one hash tag only, either a
// channel's (the entries, with the records) or a bucket's (the hints).
//
// A lease is stored as "<token>/<until ms>" in the channel's lease hash,
// under the entry's member "<game id>/<kind>".

// scheduleLua is what createScript and casScript share to write a record's
// schedule entries in the same step as the record: sched_read runs before
// the script's first write, sched_apply after.
//
// The change is a run of ARGV from position i: r and a, the counts of
// entries to remove and to add, h ("1" when the change needs a hint, see
// below), then the r members to remove, the a members to add, and the a
// due times (Unix ms as digits) of those added, in the same order. rm
// removes an entry unless a worker holds its lease (it removes the entry
// itself when done, and a record that no longer carries the timer makes
// its handling a no-op); add writes an entry and cancels its lease, so a
// worker handling the old one never removes the new one. The members are
// contiguous so that the reads take them straight from ARGV, and the due
// times are text that ZADD takes as it is: a move builds no table of its
// change and converts no number in Lua.
//
// sched_read reads what the change needs, the entries' leases, in one
// HMGET (none for an empty change), which is the lease key's type check;
// the entries' key is checked with TYPE: reading their due times
// (ZMSCORE, whose reply Redis formats from doubles as text) cost a move
// more than the TYPE does. Both run before anything is
// written. sched_apply then writes each kind of write once (one ZADD, one
// ZREM, one HDEL), and sets the keys' expiries only when refresh is set or
// its ZADD created an entry (see Redis.ttlRefresh).
//
// sched_apply sets sched_hint when the bucket must be hinted (see
// hintedLua): when its ZADD created an entry, when it moves one a worker
// holds or held a lease on, and when h says so: the caller knows the
// record the entries were written with (the script wrote them with it, the
// compare-and-set checked it is the stored one), and sets h unless every
// entry it adds puts off one of that record's pending timers. A move that
// only puts off entries the channel already has (the turn's reminder and
// timeout, on most moves) needs no hint: the channel's hint is at or
// before their old due times, so before the new ones, and a worker between
// its claim of the hint and its settle either read the channel before the
// move (and settles at or before the old due times) or after it (and sees
// the new ones). Only a worker that claimed the entry itself settles at the
// end of its lease, which may be after the new due time: that is why a
// leased entry is hinted. An entry that a worker removed meanwhile (its
// handling left the record as it was) is created again by the ZADD, and
// hinted as new.
const scheduleLua = `
local sched_hint = false
local function sched_bad(kd, kl)
  local td = redis.call('TYPE', kd).ok
  if td ~= 'none' and td ~= 'zset' then return kd end
  local tl = redis.call('TYPE', kl).ok
  if tl ~= 'none' and tl ~= 'hash' then return kl end
  return nil
end
local function sched_read(kd, kl, i)
  local n = tonumber(ARGV[i]) + tonumber(ARGV[i + 1])
  if n == 0 then return {} end
  local td = redis.call('TYPE', kd).ok
  if td ~= 'none' and td ~= 'zset' then return nil, kd end
  local ls = redis.pcall('HMGET', kl, unpack(ARGV, i + 3, i + 2 + n))
  if ls['err'] then return nil, kl end
  return ls
end
local function lease_until(l)
  if not l then return 0 end
  return tonumber(string.match(l, '/(%d+)$')) or 0
end
local function sched_apply(kd, kl, i, ls, now, ttl, refresh)
  local r, a = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  if ARGV[i + 2] == '1' then sched_hint = true end
  local m0, d0 = i + 2, i + 2 + r + a
  local zrem, zadd, hdel
  for j = 1, r do
    if not ls[j] or lease_until(ls[j]) <= tonumber(now) then
      zrem = zrem or {}; table.insert(zrem, ARGV[m0 + j])
      if ls[j] then hdel = hdel or {}; table.insert(hdel, ARGV[m0 + j]) end
    end
  end
  for j = r + 1, r + a do
    local m = ARGV[m0 + j]
    zadd = zadd or {}
    table.insert(zadd, ARGV[d0 + j - r])
    table.insert(zadd, m)
    if ls[j] then
      hdel = hdel or {}; table.insert(hdel, m)
      sched_hint = true
    end
  end
  if zrem then redis.call('ZREM', kd, unpack(zrem)) end
  local added = 0
  if zadd then added = redis.call('ZADD', kd, unpack(zadd)) end
  if added > 0 then sched_hint = true end
  if hdel then redis.call('HDEL', kl, unpack(hdel)) end
  if refresh or added > 0 then
    redis.call('PEXPIRE', kd, ttl)
    redis.call('PEXPIRE', kl, ttl)
  end
end
`

// claimChannelScript leases a channel's due entries to one worker.
//
//	KEYS[1] the channel's entries (sorted set member → due ms)   KEYS[2] its leases (hash)
//	ARGV[1] now in Unix ms   ARGV[2] the lease in ms   ARGV[3] the worker's token   ARGV[4] at most this many
//
// Replies {1, next, member, due, member, due, ...}: the entries claimed, and
// when the channel next needs a look in Unix ms (the next due entry or the
// end of a lease; -1 for never, now when more were due than claimed);
// {-2, key} when a key holds the wrong type.
var claimChannelScript = redis.NewScript(scheduleLua + `
local bad = sched_bad(KEYS[1], KEYS[2])
if bad then return {-2, bad} end
local now, upto, max = tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]), tonumber(ARGV[4])
local out, nextAt = {1, ''}, -1
local function soon(t) if nextAt < 0 or t < nextAt then nextAt = t end end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'WITHSCORES')
for i = 1, #due, 2 do
  local lu = lease_until(redis.call('HGET', KEYS[2], due[i]))
  if lu > now then
    soon(lu)
  elseif (#out - 2) / 2 < max then
    redis.call('HSET', KEYS[2], due[i], ARGV[3] .. "/" .. upto)
    table.insert(out, due[i])
    table.insert(out, due[i + 1])
    soon(upto)
  else
    soon(now)
  end
end
local nx = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
if #nx > 0 then soon(tonumber(nx[2])) end
if #out > 2 and redis.call('PTTL', KEYS[2]) < 2 * tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[2], 2 * tonumber(ARGV[2]))
end
out[2] = tostring(nextAt)
return out
`)

// doneScript removes an entry its worker has handled, if the worker still
// holds its lease and the entry is still due when it was claimed (a record
// write that moved it cancelled the lease); but when the record still
// carries the entry's timer pending at a later time (a move put it off
// without moving the entry: lazy timers, see plainMove), it puts the
// entry off to that time instead, so the timer is not lost. Given now
// (ARGV[5]) it is Claim's check of an entry it just claimed, and changes
// nothing else: an entry put off to a time already come stays leased, due
// at that time, to be handed out.
//
//	KEYS[1] the channel's entries   KEYS[2] its leases   KEYS[3] the record the member names
//	ARGV[1] the member   ARGV[2] the token   ARGV[3] the due ms claimed   ARGV[4] the timer's kind
//	ARGV[5] now ms for Claim's check, absent for Done
//
// It returns {1} when removed, {2, due ms} when put off to due (and no
// longer leased), {4, due ms} when put off to due and still leased, {0}
// when the lease was no longer the worker's (or, for Claim, the entry is
// as due as it was). The record is decoded only here, and read only when
// the entry is still the one claimed.
var doneScript = redis.NewScript(scheduleLua + `
local function timer_due(key, kind)
  local s = redis.pcall('GET', key)
  if type(s) ~= 'string' then return nil end
  local ok, r = pcall(cjson.decode, s)
  if not ok or type(r) ~= 'table' or type(r['timers']) ~= 'table' then return nil end
  for _, t in ipairs(r['timers']) do
    if type(t) == 'table' and t['kind'] == kind and t['fired'] ~= true then return tonumber(t['due_ms']) end
  end
  return nil
end
if sched_bad(KEYS[1], KEYS[2]) then return {0} end
local l = redis.call('HGET', KEYS[2], ARGV[1])
if not l or string.sub(l, 1, #ARGV[2] + 1) ~= ARGV[2] .. '/' then return {0} end
local claimed, now = tonumber(ARGV[3]), tonumber(ARGV[5])
local sc = redis.call('ZSCORE', KEYS[1], ARGV[1])
local held = sc and tonumber(sc) == claimed
local due = held and timer_due(KEYS[3], tonumber(ARGV[4]))
if due and due > claimed then
  local d = string.format('%d', due)
  redis.call('ZADD', KEYS[1], d, ARGV[1])
  if now and due <= now then return {4, d} end
  redis.call('HDEL', KEYS[2], ARGV[1])
  return {2, d}
end
if now then return {0} end
redis.call('HDEL', KEYS[2], ARGV[1])
if held then redis.call('ZREM', KEYS[1], ARGV[1]) end
return {1}
`)

// bucketLua is what the scripts that write a bucket share: bucket_mend
// removes a bucket key of the wrong type before the bucket is written. A
// bucket holds only hints, and a key of another type holds none any more,
// so removing it loses nothing, and no channel of the bucket is blocked by
// it: the truth (the entries) lives under each channel's own tag.
const bucketLua = `
local function bucket_mend(kb, kg)
  local tb, tg = redis.call('TYPE', kb).ok, redis.call('TYPE', kg).ok
  if tb ~= 'none' and tb ~= 'zset' then redis.call('DEL', kb) end
  if tg ~= 'none' and tg ~= 'hash' then redis.call('DEL', kg) end
end
`

// hintScript tells a bucket that a channel has an entry due at ARGV[2]: it
// lowers the channel's score to that time (never raises it), and bumps the
// channel's generation when ARGV[3] is "1", so that a worker that read the
// channel before this write does not raise the hint past it (see
// settleScript).
//
//	KEYS[1] the bucket (sorted set channel → when to look, ms)   KEYS[2] its generations (hash)
//	ARGV[1] the channel   ARGV[2] due ms   ARGV[3] "1" to bump   ARGV[4] TTL in ms
//
// It returns 1; a bucket key of the wrong type is replaced (see bucketLua).
var hintScript = redis.NewScript(bucketLua + `
bucket_mend(KEYS[1], KEYS[2])
redis.call('ZADD', KEYS[1], 'LT', ARGV[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if ARGV[3] == '1' then
  redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
  redis.call('PEXPIRE', KEYS[2], ARGV[4])
end
return 1
`)

// claimBucketScript leases a bucket's channels that need a look to one
// worker: their hint moves to the end of the lease, so a worker that dies
// leaves them to another then.
//
//	KEYS[1] the bucket   KEYS[2] its generations   ARGV[1] now ms   ARGV[2] lease ms   ARGV[3] at most this many
//
// It returns {channel, generation, ...}; a bucket key of the wrong type is
// removed (see bucketLua), so that the bucket works again from the next hint.
// Every replica runs it on every bucket at every poll, so it checks the
// keys' types with the reads it makes anyway (the TYPEs of bucket_mend only
// when one of them is refused): the ZRANGEBYSCORE of the bucket and, when
// channels need a look, one HMGET of their generations, before its writes.
var claimBucketScript = redis.NewScript(bucketLua + `
local chans = redis.pcall('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
if chans['err'] then
  bucket_mend(KEYS[1], KEYS[2])
  return {}
end
local out = {}
if #chans == 0 then return out end
local gens = redis.pcall('HMGET', KEYS[2], unpack(chans))
if gens['err'] then
  bucket_mend(KEYS[1], KEYS[2])
  gens = {}
end
for i, c in ipairs(chans) do
  redis.call('ZADD', KEYS[1], tonumber(ARGV[1]) + tonumber(ARGV[2]), c)
  table.insert(out, c)
  table.insert(out, gens[i] or '0')
end
return out
`)

// settleScript sets a channel's hint to when it next needs a look, as read
// by the worker that claimed it, if no write has hinted the bucket since the
// claim (same generation); else it only lowers the hint, so a write the
// worker may not have seen is looked at by its own hint or by the end of the
// worker's lease.
//
//	KEYS[1] the bucket   KEYS[2] its generations
//	ARGV[1] the channel   ARGV[2] the generation claimed   ARGV[3] next ms, -1 for never
var settleScript = redis.NewScript(`
local tb, tg = redis.call('TYPE', KEYS[1]).ok, redis.call('TYPE', KEYS[2]).ok
if (tb ~= 'none' and tb ~= 'zset') or (tg ~= 'none' and tg ~= 'hash') then return 0 end
local nx = tonumber(ARGV[3])
if (redis.call('HGET', KEYS[2], ARGV[1]) or '0') == ARGV[2] then
  if nx < 0 then
    redis.call('ZREM', KEYS[1], ARGV[1])
  else
    redis.call('ZADD', KEYS[1], nx, ARGV[1])
  end
elseif nx >= 0 then
  redis.call('ZADD', KEYS[1], 'LT', nx, ARGV[1])
end
return 1
`)

// hintedLua wraps a record script's source (createLua, casLua) so that
// it also hints the bucket, in the same step, when it wrote: it reads the
// bucket's two keys and four arguments (hintScript's but its ARGV[3]: this
// hint always bumps the generation; then "1" when the bucket's expiries are
// due a refresh, see Redis.ttlRefresh) at the end of
// KEYS and ARGV, after those the record script reads (which it counts, so
// nothing is moved: shifting the arguments cost a move more than the hint),
// runs the record script and, when its reply says written ({1}; {2} is a
// resend of a write that landed) and the write needs a hint (sched_hint,
// see scheduleLua) or the refresh is due, writes the hint. Only where the
// bucket is on the channel's node: a single server or Sentinel (see
// Redis.writeScript). The hint written at each refresh keeps the bucket
// alive while the channel has entries, without a hint on every move.
//
// The hint's writes come after the record's, so they must not fail: a
// bucket key of the wrong type refuses the write, and is then mended (see
// bucketLua) and written again, which costs the TYPE checks only on that
// path; a generation that is not a whole number starts again at 1. A
// bucket's expiry is set when the hint added the channel to it (its key may
// be new) or the refresh is due.
func hintedLua(record string) string {
	return liveLua + scheduleLua + headLua + bucketLua + `
local hb, hg = KEYS[#KEYS - 1], KEYS[#KEYS]
local hn = #ARGV - 4
local function record()
` + record + `
end
local res = record()
if type(res) == 'table' and (res[1] == 1 or res[1] == 2) and (sched_hint or ARGV[hn + 4] == '1') then
  local ch, due, ttl, refresh = ARGV[hn + 1], ARGV[hn + 2], ARGV[hn + 3], ARGV[hn + 4] == '1'
  local n = redis.pcall('ZADD', hb, 'LT', due, ch)
  if type(n) ~= 'number' then
    bucket_mend(hb, hg)
    n = redis.call('ZADD', hb, 'LT', due, ch)
  end
  local g = redis.pcall('HINCRBY', hg, ch, 1)
  if type(g) ~= 'number' then
    bucket_mend(hb, hg)
    g = redis.pcall('HINCRBY', hg, ch, 1)
    if type(g) ~= 'number' then
      redis.call('HSET', hg, ch, 1)
      g = 1
    end
  end
  if refresh or n > 0 then redis.call('PEXPIRE', hb, ttl) end
  if refresh or g == 1 then redis.call('PEXPIRE', hg, ttl) end
end
return res
`
}

// hintedCreateScript and hintedCasScript are createScript and casScript
// that hint the bucket in the same step, for a single server.
var (
	hintedCreateScript = redis.NewScript(hintedLua(createLua))
	hintedCasScript    = redis.NewScript(hintedLua(casLua))
)
