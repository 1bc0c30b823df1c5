package sessions

import "github.com/redis/go-redis/v9"

// The Lua scripts read the stored JSON with cjson, relying on the field names
// "id", "status", "expires_ms", "version", "op", "challenger", "opponent"
// and "ai" of recordJSON, on the fields of indexEntry, and on the
// numeric values of StatusPending (1) and StatusFinished (3). Every key they
// touch is passed in KEYS and shares the channel's hash tag, so they run on a
// cluster. A move (casScript) does not decode the record, nor read it
// whole: it reads the write token, id and version from the head of the
// JSON (see headLua).
//
// Redis keeps the writes a script made before an error, so every script
// checks all it depends on (the types of the keys, the fields it will
// increment) before its first write, and answers a problem with a reply
// code instead of an error: it does all of its writes or none. The check
// costs a move nothing where it can be had from a command the move runs
// anyway: a read that a key of the wrong type refuses (GET, GETRANGE, HMGET,
// run with redis.pcall) is the check of its key, and so is the script's
// first write, since a refused write changes nothing. casScript is built so
// that every key a move writes is either read first or written first (the
// index), but for the nonce's, which it records before its checks and
// deletes again when one fails (see casLua and record_cas), and the schedule's entries,
// which it checks with TYPE (see scheduleLua); only a finishing move, once
// in a record's life, checks the leaderboard's and ratings' keys with TYPE,
// and createScript, once per record, checks every key it touches. Most
// moves take moveScript instead (see plainMove), which writes the
// record alone: it reads it first, and records the nonce as casScript does.

// headLua reads the head of a stored record as encodeRecord writes it,
// without decoding the JSON: record_head returns the write token, the id
// and the version (a string of digits), or nil when the value does not
// start as encodeRecord starts it (no token, another order of fields, a
// character the pattern does not take), and the caller then decodes it
// with cjson. It is sound because encoding/json writes the fields of
// recordJSON in their order, "schema", "op", "key", "id", "version" first,
// and the key object holds strings only, in which a quote is escaped, so
// the first `},"id":"` closes it; a plain search finds that, where a lazy
// pattern tried the rest of the pattern at every character of the key.
//
// record_read reads a record key for a compare-and-set: the first 256
// bytes (GETRANGE), which hold the head of every record whose channel's
// names are not long, and the whole value only when they do not parse
// (then decoded with cjson). It returns the value read whole (false when
// only its head was read, nil when the key is missing), the token, id and
// version (nil when none can be read), and true last for a key that is not
// a string, which nothing was written to. A match on a prefix is a match on
// the whole value, with the same captures: the pattern is anchored at the
// start, and the version's digits must be followed by a comma.
//
// record_cas is the check both compare-and-set scripts make before their
// writes (casLua, moveLua): the record read as record_read reads it, a
// resend of this write (token), then the request's nonce kn recorded with
// its TTL nttl (when kn is given) before the id and version are compared,
// the nonce deleted again on a mismatch, so that a replayed request is
// refused as one. It returns casScript's reply when the write must not go
// on, nil when it may.
const headLua = `
local function record_head(s)
  local op, p = string.match(s, '^{"schema":%d+,"op":"([^"\\]*)","key":{()')
  if not op then return nil end
  local q = string.find(s, '},"id":"', p, true)
  if not q then return nil end
  local id, version = string.match(s, '^([^"\\]*)","version":(%d+),', q + 8)
  if not id then return nil end
  return op, id, version
end
local function record_read(key)
  local cur = redis.pcall('GETRANGE', key, 0, 255)
  if type(cur) == 'table' then return nil, nil, nil, nil, true end
  local op, id, version = record_head(cur)
  if op then return false, op, id, version end
  cur = redis.call('GET', key)
  if not cur then return nil end
  op, id, version = nil, nil, nil
  local ok, r = pcall(cjson.decode, cur)
  if ok and type(r) == 'table' then op, id, version = r['op'], r['id'], r['version'] end
  return cur, op, id, version
end
local function record_cas(kr, token, id, version, kn, nttl)
  local cur, op, rid, rversion, wrong = record_read(kr)
  if wrong then return {-2, redis.call('TYPE', kr).ok} end
  if cur == nil then return {-1} end
  if not op then return {0, cur} end
  if op == token then return {2} end
  if kn and not redis.call('SET', kn, '1', 'PX', nttl, 'NX') then return {3} end
  if rid ~= id or tostring(rversion) ~= version and tonumber(rversion) ~= tonumber(version) then
    if kn then redis.call('DEL', kn) end
    return {0, cur or redis.call('GET', kr)}
  end
  return nil
end
`

// liveLua is the rule, shared by the scripts, for whether an index entry
// (see indexEntry) still stands for an active game at time now (Unix ms):
// not finished, its record not past its TTL deadline, and not a challenge
// past its expiry. It matches match.Record.Active. call_many runs one
// command on a key and a list of arguments, 1000 to a call (Lua's unpack
// takes only so many).
const liveLua = `
local function live(e, now)
  if type(e) ~= 'table' then return false end
  local st = tonumber(e['s'])
  if st ~= 1 and st ~= 2 then return false end
  if (tonumber(e['d']) or 0) <= now then return false end
  local x = tonumber(e['x']) or 0
  if st == 1 and x > 0 and x < now then return false end
  return true
end
local function entry(s)
  local ok, e = pcall(cjson.decode, s)
  if ok and type(e) == 'table' then return e end
  return nil
end
local function call_many(cmd, key, args)
  for i = 1, #args, 1000 do
    redis.call(cmd, key, unpack(args, i, math.min(i + 999, #args)))
  end
end
`

// createScript stores a new record, its entry in the channel's index of
// active games and its players in the per-player index, if none of its
// players is in another active game of the channel and the channel holds
// fewer than its limit of active games. It prunes the index entries that no
// longer stand for an active game (and the players they held) in the same
// step.
//
//	KEYS[1] the record   KEYS[2] the index (hash id → entry JSON)
//	KEYS[3] the players (hash player id → game id)
//	KEYS[4] the schedule's entries   KEYS[5] their leases (see scheduleLua)
//	KEYS[6] the request's nonce, when ARGV[10] holds "n"
//	ARGV[1] the JSON   ARGV[2] TTL in ms   ARGV[3] now in Unix ms   ARGV[4] the write token
//	ARGV[5] the nonce's TTL in ms   ARGV[6] the channel's limit   ARGV[7] the game id
//	ARGV[8] its index entry   ARGV[9] the indexes' TTL in ms
//	ARGV[10] "n" when KEYS[6] is the nonce's, else ""   ARGV[11] how many players follow, n
//	ARGV[12..11+n] the players it binds   ARGV[12+n..] the schedule change (see scheduleLua)
//
// Whatever follows is left to a wrapper (see hintedLua).
//
// Replies:
//
//	{1}         stored (or the record already carries this write's token: a resend of a Create that landed)
//	{0, id}     a player is in active game id
//	{4, n}      the channel holds n active games, its limit
//	{3}         the nonce has been seen (a replayed request)
//	{-2, key}   key holds the wrong type
//	{-5}        the record key is taken by another write (a game id drawn twice)
var createScript = redis.NewScript(liveLua + scheduleLua + createLua)

const createLua = `
local kn
if ARGV[10] == 'n' then kn = KEYS[6] end
local np = tonumber(ARGV[11])
local si = 12 + np
local cur = redis.pcall('GET', KEYS[1])
if type(cur) == 'table' then return {-2, KEYS[1]} end
local flat = redis.pcall('HGETALL', KEYS[2])
if flat['err'] then return {-2, KEYS[2]} end
local pf = redis.pcall('HGETALL', KEYS[3])
if pf['err'] then return {-2, KEYS[3]} end
local ls, bad = sched_read(KEYS[4], KEYS[5], si)
if not ls then return {-2, bad} end
if cur then
  local r = entry(cur)
  if r and r['op'] == ARGV[4] then return {1} end
  return {-5}
end
if kn and redis.call('EXISTS', kn) == 1 then return {3} end
local now = tonumber(ARGV[3])
local mine = {}
for i = 12, 11 + np do mine[ARGV[i]] = true end
local n, busy, alive, stale = 0, nil, {}, {}
for i = 1, #flat, 2 do
  local e = entry(flat[i + 1])
  if live(e, now) then
    n = n + 1
    alive[flat[i]] = true
    if type(e['p']) == 'table' then
      for _, p in ipairs(e['p']) do
        if mine[p] and not busy then busy = flat[i] end
      end
    end
  else
    table.insert(stale, flat[i])
  end
end
if busy then return {0, busy} end
if n >= tonumber(ARGV[6]) then return {4, tostring(n)} end
call_many('HDEL', KEYS[2], stale)
local gone = {}
for i = 1, #pf, 2 do
  if not alive[pf[i + 1]] then table.insert(gone, pf[i]) end
end
call_many('HDEL', KEYS[3], gone)
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('HSET', KEYS[2], ARGV[7], ARGV[8])
local bind = {}
for i = 12, 11 + np do
  table.insert(bind, ARGV[i])
  table.insert(bind, ARGV[7])
end
if #bind > 0 then redis.call('HSET', KEYS[3], unpack(bind)) end
redis.call('PEXPIRE', KEYS[2], ARGV[9])
redis.call('PEXPIRE', KEYS[3], ARGV[9])
if kn then redis.call('SET', kn, '1', 'PX', ARGV[5]) end
sched_apply(KEYS[4], KEYS[5], si, ls, now, ARGV[9], true)
return {1}
`

// casScript replaces the record if it is still the same game at the expected
// version, and adds the tally to the leaderboard (and, for a rated game, the
// ratings, rating histories and head-to-head record) in the same step. In
// the same step it updates the record's entry in the channel's index of
// active games and binds its players, or, when the record is no longer
// active, removes the entry and releases the players; it refuses to bind a
// player who is in another active game. A finishing move also points its
// players at the game as their last finished one.
//
// It takes only the keys a write touches, in this order, the optional
// ones as ARGV[10] says:
//
//	KEYS[1] the record   KEYS[2] the index   KEYS[3] the players
//	KEYS[4] the schedule's entries   KEYS[5] their leases (see scheduleLua)
//	then the request's nonce, with "n"
//	then, for a tally ("t"), the leaderboard (a hash: w:<id>, l:<id>, d:<id> counts,
//	n:<id> name), ratings (hash id → rating JSON), ratings by value (sorted set), rating
//	histories (hash id → csv), head to head (hash of counts), the season's write counter
//	then the players' last finished games (a hash), with "f"
//
// and only the arguments a write uses, the sections a move leaves out
// (a tally's, most of all) not sent at all: every argument costs Redis a
// string and a Lua string, and a move used to send twenty empty ones.
//
//	ARGV[1] expected version   ARGV[2] new JSON   ARGV[3] record TTL in ms   ARGV[4] write token
//	ARGV[5] expected game id   ARGV[6] the new index entry, "-" to remove it
//	ARGV[7] the indexes' TTL in ms   ARGV[8] now in Unix ms
//	ARGV[9] "1" when the channel's keys are due a refresh of their expiries (see Redis.ttlRefresh)
//	ARGV[10] which optional sections follow, in this order: "n" the nonce's, "t" the tally's,
//	         "f" the last finished games'
//	ARGV[11] how many players follow, n   ARGV[12..11+n] the players of the record; none when the
//	         write leaves the players' index alone (see Redis.cas)
//	then, with "n", the nonce's TTL in ms
//	then, with "t", the tally (see tallyArgs): its kind ("w" win, "d" draw), the winner's id and
//	         name, the loser's id and name, the leaderboard's TTL in ms (≤ 0 for none), the
//	         further players of a game of 3 or 4, who count like the loser (a JSON array of
//	         [id, name] pairs, "" for none), "1" for a rated game, and for a rated game eleven
//	         more: the winner's and loser's stored ratings as read ("" for none), their new
//	         ratings, the new ratings' values (for the sorted set), their stored histories as
//	         read, their new histories, the head-to-head count to increment
//	then, with "f", the last finished games' TTL in ms (the players are pointed at the game)
//	then the schedule change (see scheduleLua)
//
// Whatever follows is left to a wrapper (see hintedLua).
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
//	{5, r1, r2, h1, h2}  a player's rating or history is not what the caller planned from: the
//	               stored ratings and histories of the winner and the loser ("" for none), to plan again
//	{6, id}        a player the record binds is in active game id
//	{-1}           the record is gone
//	{-2, type}     the record key holds a non-string
//	{-3, key}      a leaderboard, rating or index key holds the wrong type
//	{-4, field}    a count to increment is not a whole number
var casScript = redis.NewScript(liveLua + scheduleLua + headLua + casLua)

// moveScript is casScript for a write that changes the record alone (see
// plainMove): most moves of a game. It reads the record's head,
// records the request's nonce and writes the record, keeping its expiry
// (KEEPTTL), which the channel's keys and the index entry share with it:
// all were set by the game's first write of the slot of time (see
// ttlRefresh), which took casScript. Every reply is one of casScript's.
//
//	KEYS[1] the record   KEYS[2] the request's nonce, when ARGV[5] is given
//	ARGV[1] expected version   ARGV[2] new JSON   ARGV[3] write token   ARGV[4] expected game id
//	ARGV[5] the nonce's TTL in ms, absent for none
var moveScript = redis.NewScript(headLua + moveLua)

// moveLua makes casLua's checks (record_cas) and writes the record.
const moveLua = `
local checked = record_cas(KEYS[1], ARGV[3], ARGV[4], ARGV[1], ARGV[5] and KEYS[2], ARGV[5])
if checked then return checked end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return {1}
`

// casLua reads the record's head only (record_read), and the whole record
// only to return it on a mismatch. The last finished games are pointed at
// after every other write, each write refused by a key of the wrong type
// left alone: the pointer is a convenience for /connect4 analyze, which a
// damaged key loses, never a reason to refuse the move.
//
// The nonce is recorded where it is checked, by a SET NX (a replay finds
// it set and is refused before any write), so that a move runs one command
// for it, not an EXISTS and then a SET: every reply after it but {1} deletes
// it again (undo), which leaves the keys as they were, since the SET NX
// found none. No type of key refuses it (a key of any type is a replay);
// a server out of memory does, with an error, before anything was written.
const casLua = `
local kr, ki, kp, kd, kl = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local opt = ARGV[10]
local np = tonumber(ARGV[11])
local nk, ai = 6, 12 + np
local kn, nttl, kf, fttl, tk
local kind, wid, wname, lid, lname, lbttl, others, rv = ''
if opt ~= '' then
  if string.find(opt, 'n', 1, true) then kn, nttl, nk, ai = KEYS[nk], ARGV[ai], nk + 1, ai + 1 end
  if string.find(opt, 't', 1, true) then
    tk = {}
    for i = 0, 5 do tk[i + 2] = KEYS[nk + i] end
    nk = nk + 6
    kind, wid, wname, lid, lname, lbttl, others = unpack(ARGV, ai, ai + 6)
    if ARGV[ai + 7] == '1' then rv = ai + 8; ai = ai + 11 end
    ai = ai + 8
  end
  if string.find(opt, 'f', 1, true) then kf, fttl, ai = KEYS[nk], ARGV[ai], ai + 1 end
end
local si = ai
local checked = record_cas(kr, ARGV[4], ARGV[5], ARGV[1], kn, nttl)
if checked then return checked end
local function undo(r)
  if kn then redis.call('DEL', kn) end
  return r
end
local ls, bad = sched_read(kd, kl, si)
if not ls then return undo({-3, bad}) end
local bind = ARGV[6] ~= '-'
local players, bound = {}, {}
if np > 0 then
  players = {unpack(ARGV, 12, 11 + np)}
  bound = redis.pcall('HMGET', kp, unpack(players))
  if bound['err'] then return undo({-3, kp}) end
end
if bind and np > 0 then
  local now = tonumber(ARGV[8])
  for i, p in ipairs(players) do
    local g = bound[i]
    if g and g ~= ARGV[5] then
      local e = redis.pcall('HGET', ki, g)
      if type(e) == 'table' then return undo({-3, ki}) end
      if e and live(entry(e), now) then return undo({6, g}) end
    end
  end
end
local rated = rv ~= nil
local counts = {}
local more = {}
if kind ~= '' and others ~= '' then
  local okm, m = pcall(cjson.decode, others)
  if okm and type(m) == 'table' then more = m end
end
if kind == 'w' then
  counts = {{2, 'w:' .. wid}, {2, 'l:' .. lid}}
elseif kind ~= '' then
  counts = {{2, 'd:' .. wid}, {2, 'd:' .. lid}}
end
for _, p in ipairs(more) do
  if kind == 'w' then table.insert(counts, {2, 'l:' .. p[1]}) else table.insert(counts, {2, 'd:' .. p[1]}) end
end
if rated then table.insert(counts, {6, ARGV[rv + 10]}) end
if kind ~= '' then
  local lbf = {}
  for _, c in ipairs(counts) do
    if c[1] == 2 then table.insert(lbf, c[2]) end
  end
  local v = redis.pcall('HMGET', tk[2], unpack(lbf))
  if v['err'] then return undo({-3, tk[2]}) end
  for i, f in ipairs(lbf) do
    if v[i] and (#v[i] > 15 or not string.match(v[i], '^%d+$')) then return undo({-4, f}) end
  end
  local gen = redis.pcall('GET', tk[7])
  if type(gen) == 'table' then return undo({-3, tk[7]}) end
  if gen and not string.match(gen, '^%d+$') then return undo({-4, tk[7]}) end
  if rated then
    local h = redis.pcall('HGET', tk[6], ARGV[rv + 10])
    if type(h) == 'table' then return undo({-3, tk[6]}) end
    if h and (#h > 15 or not string.match(h, '^%d+$')) then return undo({-4, ARGV[rv + 10]}) end
    local zt = redis.call('TYPE', tk[4]).ok
    if zt ~= 'none' and zt ~= 'zset' then return undo({-3, tk[4]}) end
    local rt = redis.pcall('HMGET', tk[3], wid, lid)
    if rt['err'] then return undo({-3, tk[3]}) end
    local rh = redis.pcall('HMGET', tk[5], wid, lid)
    if rh['err'] then return undo({-3, tk[5]}) end
    if (rt[1] or '') ~= ARGV[rv] or (rt[2] or '') ~= ARGV[rv + 1] or (rh[1] or '') ~= ARGV[rv + 6] or (rh[2] or '') ~= ARGV[rv + 7] then
      return undo({5, rt[1] or '', rt[2] or '', rh[1] or '', rh[2] or ''})
    end
  end
end
-- The first write but the nonce's: the index's. A key of the wrong type
-- refuses it, and then nothing has been written (see the top of this file).
local added = 0
if bind then
  added = redis.pcall('HSET', ki, ARGV[5], ARGV[6])
else
  added = redis.pcall('HDEL', ki, ARGV[5])
end
if type(added) ~= 'number' then return undo({-3, ki}) end
local refresh = ARGV[9] == '1'
redis.call('SET', kr, ARGV[2], 'PX', ARGV[3])
sched_apply(kd, kl, si, ls, ARGV[8], ARGV[7], refresh)
if bind then
  local hset
  for i, p in ipairs(players) do
    if bound[i] ~= ARGV[5] then
      hset = hset or {}
      table.insert(hset, p)
      table.insert(hset, ARGV[5])
    end
  end
  if hset then redis.call('HSET', kp, unpack(hset)) end
  if refresh or added > 0 then redis.call('PEXPIRE', ki, ARGV[7]) end
  if refresh or hset then redis.call('PEXPIRE', kp, ARGV[7]) end
else
  local hdel = {}
  for i, p in ipairs(players) do
    if bound[i] == ARGV[5] then table.insert(hdel, p) end
  end
  if #hdel > 0 then redis.call('HDEL', kp, unpack(hdel)) end
end
if kind ~= '' then
  for _, c in ipairs(counts) do redis.call('HINCRBY', tk[c[1]], c[2], 1) end
  redis.call('HSET', tk[2], 'n:' .. wid, wname, 'n:' .. lid, lname)
  for _, p in ipairs(more) do redis.call('HSET', tk[2], 'n:' .. p[1], p[2]) end
  redis.call('INCR', tk[7])
  local season = {2, 7}
  if rated then
    redis.call('HSET', tk[3], wid, ARGV[rv + 2], lid, ARGV[rv + 3])
    redis.call('ZADD', tk[4], ARGV[rv + 4], wid, ARGV[rv + 5], lid)
    redis.call('HSET', tk[5], wid, ARGV[rv + 8], lid, ARGV[rv + 9])
    season = {2, 3, 4, 5, 6, 7}
  end
  for _, i in ipairs(season) do
    if tonumber(lbttl) > 0 then
      redis.call('PEXPIRE', tk[i], lbttl)
    else
      redis.call('PERSIST', tk[i])
    end
  end
end
if kf and np > 0 then
  local fin = {}
  for _, p in ipairs(players) do
    table.insert(fin, p)
    table.insert(fin, ARGV[5])
  end
  if type(redis.pcall('HSET', kf, unpack(fin))) == 'number' then
    redis.call('PEXPIRE', kf, fttl)
  end
end
return {1}
`

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

// deleteScript removes a record, its index entry and its players'
// bindings to it.
//
//	KEYS[1] the record   KEYS[2] the index   KEYS[3] the players
//	ARGV[1] the game id
//
// It returns 1, or {-2, key} when a key holds the wrong type (nothing is
// deleted then).
var deleteScript = redis.NewScript(liveLua + `
for i = 2, 3 do
  local t = redis.call('TYPE', KEYS[i]).ok
  if t ~= 'none' and t ~= 'hash' then return {-2, KEYS[i]} end
end
redis.call('DEL', KEYS[1])
redis.call('HDEL', KEYS[2], ARGV[1])
local pf = redis.call('HGETALL', KEYS[3])
for i = 1, #pf, 2 do
  if pf[i + 1] == ARGV[1] then redis.call('HDEL', KEYS[3], pf[i]) end
end
return 1
`)

// hdelIfScript deletes field ARGV[1] of hash KEYS[1] only if it still holds
// ARGV[2], so that Repair never removes an entry written after it looked.
// It returns 1 when deleted, else 0.
var hdelIfScript = redis.NewScript(`
if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then return 0 end
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
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

// migrateScript moves the record the version before several games per
// channel left at the channel's bare key (the legacy record) to its own
// key, indexed like any other, if the legacy key still holds what the
// caller read; it keeps the record's TTL. A player already bound to another
// game keeps that binding.
//
//	KEYS[1] the legacy record   KEYS[2] the record's own key   KEYS[3] the index   KEYS[4] the players
//	ARGV[1] the JSON read   ARGV[2] the game id   ARGV[3] its index entry, "" when it is not active
//	ARGV[4] the indexes' TTL in ms   ARGV[5..] the players it binds
//
// It returns 1 when moved, 0 when the legacy key changed meanwhile, 2 when
// the record's own key was taken (the legacy record is dropped: the game
// lives on there), or {-2, key} when a key holds the wrong type.
var migrateScript = redis.NewScript(`
local want = {'string', 'string', 'hash', 'hash'}
for i = 1, 4 do
  local t = redis.call('TYPE', KEYS[i]).ok
  if t ~= 'none' and t ~= want[i] then return {-2, KEYS[i]} end
end
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('DEL', KEYS[1])
  return 2
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ttl)
else
  redis.call('SET', KEYS[2], ARGV[1])
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
  for i = 5, #ARGV do redis.call('HSETNX', KEYS[4], ARGV[i], ARGV[2]) end
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
  redis.call('PEXPIRE', KEYS[4], ARGV[4])
end
redis.call('DEL', KEYS[1])
return 1
`)
