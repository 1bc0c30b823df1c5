package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// ratingPlan rates the game t records from the players' ratings and
// histories as the rating cache holds them (see ratingCache). When those
// cannot be read it reads the stored ones (one round trip), which the
// cache may be behind (a value repaired since), and plans from those.
func (s *Redis) ratingPlan(ctx context.Context, k match.Key, t match.Tally) (*ratingPlan, error) {
	r, h := s.rated.get(k, t)
	if p, err := planRating(k, t, r, h); err == nil {
		return p, nil
	}
	var rt, rh *redis.SliceCmd
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		rt = p.HMGet(ctx, s.tagged(k, "rt"), t.Winner.ID, t.Loser.ID)
		rh = p.HMGet(ctx, s.tagged(k, "rth"), t.Winner.ID, t.Loser.ID)
		return nil
	})
	if isWrongType(err) {
		return nil, s.corrupt("update", &match.CorruptError{Key: k, Err: errors.New("a rating key holds the wrong type")})
	}
	if err != nil {
		return nil, s.fail("update", k, err)
	}
	r, h = pair(rt.Val()), pair(rh.Val())
	s.rated.put(k, t, r, h)
	p, err := planRating(k, t, r, h)
	if err != nil {
		return nil, s.corrupt("update", err)
	}
	return p, nil
}

// pair returns the two values of an HMGET, "" for a missing field.
func pair(v []any) [2]string {
	var out [2]string
	for i := range min(2, len(v)) {
		out[i], _ = v[i].(string)
	}
	return out
}

// Ratings implements the store's Ratings with one script call over the
// sorted set of ratings.
func (s *Redis) Ratings(ctx context.Context, k match.Key, n int) ([]match.Standing, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	if n <= 0 {
		n = 1 << 20
	}
	res, err := ratingsScript.Run(ctx, s.c, []string{s.tagged(k, "rtz"), s.tagged(k, "rt"), s.lbKey(k)}, n).Slice()
	if isWrongType(err) {
		return nil, s.corrupt("ratings", &match.CorruptError{Key: k, Err: errors.New("a rating key holds the wrong type")})
	}
	if err != nil {
		return nil, s.fail("ratings", k, err)
	}
	out := make([]match.Standing, 0, len(res))
	for _, row := range res {
		f, ok := row.([]any)
		if !ok || len(f) != 6 {
			return nil, s.fail("ratings", k, fmt.Errorf("unexpected script row %v", row))
		}
		str := func(i int) string { v, _ := f[i].(string); return v }
		st := match.Standing{Player: match.Player{ID: str(0)}}
		for i, kind := range [...]string{"w", "l", "d", "n"} {
			if v := str(2 + i); v != "" {
				if err := setStanding(&st, kind, v); err != nil {
					return nil, s.corrupt("ratings", &match.CorruptError{Key: k, Err: err})
				}
			}
		}
		r, err := match.DecodeRating(str(1))
		if err != nil {
			return nil, s.corrupt("ratings", &match.CorruptError{Key: k, Err: fmt.Errorf("rating of %.40q: %w", st.Player.ID, err)})
		}
		st.Rating = &r
		out = append(out, st)
	}
	return out, nil
}

// HeadToHead implements the store's HeadToHead with one HMGET.
func (s *Redis) HeadToHead(ctx context.Context, k match.Key, a, b string) (match.HeadToHead, error) {
	h := match.HeadToHead{A: a, B: b}
	if err := s.begin(k); err != nil {
		return h, err
	}
	f := headToHeadFields(a, b)
	vals, err := s.c.HMGet(ctx, s.tagged(k, "h2h"), f[:]...).Result()
	if isWrongType(err) {
		return h, s.corrupt("head to head", &match.CorruptError{Key: k, Err: errors.New("the head-to-head key holds the wrong type")})
	}
	if err != nil {
		return h, s.fail("head to head", k, err)
	}
	dst := [3]*int{&h.AWins, &h.BWins, &h.Draws}
	for i, v := range vals {
		str, ok := v.(string)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(str)
		if err != nil || n < 0 {
			return match.HeadToHead{A: a, B: b}, s.corrupt("head to head", &match.CorruptError{Key: k, Err: fmt.Errorf("head-to-head count %.40q = %.20q", f[i], str)})
		}
		*dst[i] = n
	}
	if a == b {
		return match.HeadToHead{A: a, B: b}, nil
	}
	return h, nil
}

// seasonJSON is the stored form of an archived season.
type seasonJSON struct {
	Number    int            `json:"number"`
	EndedMS   int64          `json:"ended_ms"`
	Standings []standingJSON `json:"standings"`
}

type standingJSON struct {
	ID     string `json:"id"`
	Name   string `json:"name,omitempty"`
	W      int    `json:"w"`
	L      int    `json:"l"`
	D      int    `json:"d"`
	Rating string `json:"rating"`
}

func encodeSeason(se match.Season) ([]byte, error) {
	j := seasonJSON{Number: se.Number, EndedMS: se.Ended.UnixMilli()}
	for _, st := range se.Standings {
		j.Standings = append(j.Standings, standingJSON{ID: st.Player.ID, Name: st.Player.Name,
			W: st.Wins, L: st.Losses, D: st.Draws, Rating: match.EncodeRating(*st.Rating)})
	}
	return json.Marshal(j)
}

func decodeSeason(k match.Key, b string) (match.Season, error) {
	var j seasonJSON
	if err := json.Unmarshal([]byte(b), &j); err != nil {
		return match.Season{}, &match.CorruptError{Key: k, Err: fmt.Errorf("archived season: %w", err)}
	}
	se := match.Season{Number: j.Number, Ended: time.UnixMilli(j.EndedMS).UTC()}
	for _, st := range j.Standings {
		r, err := match.DecodeRating(st.Rating)
		if err != nil {
			return match.Season{}, &match.CorruptError{Key: k, Err: fmt.Errorf("archived season %d: %w", j.Number, err)}
		}
		se.Standings = append(se.Standings, match.Standing{Player: match.Player{ID: st.ID, Name: st.Name},
			Wins: st.W, Losses: st.L, Draws: st.D, Rating: &r})
	}
	return se, nil
}

// NewSeason implements the store's NewSeason: it reads the season (one
// round trip), and archives it with a script that checks nothing was
// tallied since; on a race it reads again, a few times.
func (s *Redis) NewSeason(ctx context.Context, k match.Key) (match.Season, error) {
	if err := s.begin(k); err != nil {
		return match.Season{}, err
	}
	for range s.cfg.maxRetries + 1 {
		var gen *redis.StringCmd
		var n *redis.IntCmd
		_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
			gen = p.Get(ctx, s.tagged(k, "gen"))
			n = p.LLen(ctx, s.tagged(k, "seasons"))
			return nil
		})
		if err != nil && !errors.Is(err, redis.Nil) {
			if isWrongType(err) {
				return match.Season{}, s.corrupt("new season", &match.CorruptError{Key: k, Err: errors.New("a season key holds the wrong type")})
			}
			return match.Season{}, s.fail("new season", k, err)
		}
		standings, err := s.Ratings(ctx, k, 0)
		if err != nil {
			return match.Season{}, err
		}
		if len(standings) == 0 {
			return match.Season{}, match.ErrEmptySeason
		}
		se := match.Season{Number: int(n.Val()) + 1, Ended: s.cfg.now(), Standings: standings}
		b, err := encodeSeason(se)
		if err != nil {
			return match.Season{}, fmt.Errorf("sessions: new season %s: %w", k, err)
		}
		keys := []string{s.tagged(k, "gen"), s.tagged(k, "seasons"), s.lbKey(k), s.tagged(k, "rt"),
			s.tagged(k, "rtz"), s.tagged(k, "rth"), s.tagged(k, "h2h")}
		done, err := seasonScript.Run(ctx, s.c, keys, gen.Val(), n.Val(), b).Int64()
		switch {
		case err != nil:
			return match.Season{}, s.fail("new season", k, err)
		case done == 1:
			return se, nil
		case done == -3:
			return match.Season{}, s.corrupt("new season", &match.CorruptError{Key: k, Err: errors.New("a season key holds the wrong type")})
		}
	}
	return match.Season{}, fmt.Errorf("sessions: new season %s: %w", k, match.ErrConflict)
}

// Seasons implements the store's Seasons with one LRANGE.
func (s *Redis) Seasons(ctx context.Context, k match.Key) ([]match.Season, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	raw, err := s.c.LRange(ctx, s.tagged(k, "seasons"), 0, -1).Result()
	if isWrongType(err) {
		return nil, s.corrupt("seasons", &match.CorruptError{Key: k, Err: errors.New("the seasons key holds the wrong type")})
	}
	if err != nil {
		return nil, s.fail("seasons", k, err)
	}
	out := make([]match.Season, 0, len(raw))
	for _, b := range raw {
		se, err := decodeSeason(k, b)
		if err != nil {
			return nil, s.corrupt("seasons", err)
		}
		out = append(out, se)
	}
	return out, nil
}

// Leaderboard implements the store's Leaderboard with one HGETALL; the sorting
// happens here, as a channel has few players.
func (s *Redis) Leaderboard(ctx context.Context, k match.Key, n int) ([]match.Standing, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	h, err := s.c.HGetAll(ctx, s.lbKey(k)).Result()
	if isWrongType(err) {
		return nil, s.corrupt("leaderboard", wrongType(k, "leaderboard", "value of another type"))
	}
	if err != nil {
		return nil, s.fail("leaderboard", k, err)
	}
	if len(h) == 0 {
		return nil, nil
	}
	byID := map[string]*match.Standing{}
	for f, v := range h {
		kind, id, ok := strings.Cut(f, ":")
		if !ok || id == "" || len(id) > match.MaxIDLen {
			return nil, s.corrupt("leaderboard", &match.CorruptError{Key: k, Err: fmt.Errorf("leaderboard field %.40q", f)})
		}
		st := byID[id]
		if st == nil {
			st = &match.Standing{Player: match.Player{ID: id}}
			byID[id] = st
		}
		if err := setStanding(st, kind, v); err != nil {
			return nil, s.corrupt("leaderboard", &match.CorruptError{Key: k, Err: err})
		}
	}
	ss := make([]match.Standing, 0, len(byID))
	for _, st := range byID {
		ss = append(ss, *st)
	}
	return rankStandings(ss, n), nil
}

// Stats implements the store's Stats with one pipeline: the counts, the
// rating and the rating history.
func (s *Redis) Stats(ctx context.Context, k match.Key, userID string) (match.Standing, error) {
	st := match.Standing{Player: match.Player{ID: userID}}
	if err := s.begin(k); err != nil {
		return st, err
	}
	if userID == "" || len(userID) > match.MaxIDLen {
		return st, nil
	}
	kinds := [...]string{"w", "l", "d", "n"}
	fields := make([]string, len(kinds))
	for i, kind := range kinds {
		fields[i] = kind + ":" + userID
	}
	// HMGET, not HGET, for the rating and history: a missing field is a
	// nil entry rather than a redis.Nil error failing the pipeline.
	var lb, rt, rh *redis.SliceCmd
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		lb = p.HMGet(ctx, s.lbKey(k), fields...)
		rt = p.HMGet(ctx, s.tagged(k, "rt"), userID)
		rh = p.HMGet(ctx, s.tagged(k, "rth"), userID)
		return nil
	})
	if isWrongType(err) {
		return st, s.corrupt("stats", &match.CorruptError{Key: k, Err: errors.New("a leaderboard or rating key holds the wrong type")})
	}
	if err != nil {
		return st, s.fail("stats", k, err)
	}
	bad := func(err error) (match.Standing, error) {
		return match.Standing{Player: match.Player{ID: userID}}, s.corrupt("stats", &match.CorruptError{Key: k, Err: err})
	}
	for i, v := range lb.Val() {
		str, ok := v.(string)
		if !ok {
			continue // nil: no such field
		}
		if err := setStanding(&st, kinds[i], str); err != nil {
			return bad(err)
		}
	}
	if v := pair(rt.Val())[0]; v != "" {
		r, err := match.DecodeRating(v)
		if err != nil {
			return bad(err)
		}
		st.Rating = &r
	}
	if st.History, err = match.DecodeHistory(pair(rh.Val())[0]); err != nil {
		return bad(err)
	}
	return st, nil
}

// setStanding sets one leaderboard field, of kind w, l, d or n, on st.
func setStanding(st *match.Standing, kind, v string) error {
	if kind == "n" {
		if len(v) > match.MaxNameLen {
			return fmt.Errorf("leaderboard name of %q longer than %d bytes", st.Player.ID, match.MaxNameLen)
		}
		st.Player.Name = v
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("leaderboard count %s:%s = %.20q", kind, st.Player.ID, v)
	}
	switch kind {
	case "w":
		st.Wins = n
	case "l":
		st.Losses = n
	case "d":
		st.Draws = n
	default:
		return fmt.Errorf("leaderboard field kind %.10q", kind)
	}
	return nil
}
