package sessions

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
)

// A channel's finished tournaments, newest first, at most
// tournament.MaxHistory, with no TTL (like its archived seasons):
//
//	<prefix>{<platform>:<workspace>:<channel>}:tourneys   a list of JSON summaries
//
// The summary is pushed by the very script that writes the tournament's
// last round as finished (tournamentScript, under the same hash tag), so
// it is recorded once, whichever replicas race to advance the last round,
// and never without the tournament having finished.

// summarySchema is the version of a stored summary.
const summarySchema = 1

type (
	summaryJSON struct {
		Schema  int         `json:"schema"`
		ID      string      `json:"id"`
		Format  uint8       `json:"format"`
		Double  bool        `json:"double,omitempty"`
		Rounds  int         `json:"rounds"`
		Started time.Time   `json:"started"`
		Ended   time.Time   `json:"ended"`
		Places  []placeJSON `json:"places"`
	}
	placeJSON struct {
		ID        string  `json:"id"`
		Name      string  `json:"name"`
		Rank      int     `json:"rank"`
		Score     int     `json:"half_points"`
		Buchholz  float64 `json:"bh"`
		SB        float64 `json:"sb"`
		Withdrawn bool    `json:"out,omitempty"`
	}
)

// encodeSummary returns the stored form of s.
func encodeSummary(s tournament.Summary) string {
	j := summaryJSON{Schema: summarySchema, ID: s.ID, Format: uint8(s.Format), Double: s.Double, Rounds: s.Rounds,
		Started: normTime(s.Started), Ended: normTime(s.Ended)}
	for _, p := range s.Places {
		j.Places = append(j.Places, placeJSON{ID: p.Player.ID, Name: p.Player.Name, Rank: p.Rank, Score: int(p.Score),
			Buchholz: p.Buchholz, SB: p.SonnebornBerger, Withdrawn: p.Withdrawn})
	}
	b, _ := json.Marshal(j) // strings, numbers and times: never fails
	return string(b)
}

// decodeSummary reads back a stored summary of channel k.
func decodeSummary(k match.Key, s string) (tournament.Summary, error) {
	var j summaryJSON
	if err := json.Unmarshal([]byte(s), &j); err != nil || j.Schema != summarySchema || len(j.Places) > tournament.MaxPlayers {
		return tournament.Summary{}, &match.CorruptError{Key: k, Err: fmt.Errorf("tournament summary: schema %d, %d places, %v", j.Schema, len(j.Places), err)}
	}
	out := tournament.Summary{ID: j.ID, Format: tournament.Format(j.Format), Double: j.Double, Rounds: j.Rounds, Started: j.Started, Ended: j.Ended}
	for _, p := range j.Places {
		out.Places = append(out.Places, tournament.Place{Player: match.Player{ID: p.ID, Name: p.Name}, Rank: p.Rank,
			Score: pairing.Points(p.Score), Buchholz: p.Buchholz, SonnebornBerger: p.SB, Withdrawn: p.Withdrawn})
	}
	return out, nil
}

// finishSummary is the summary to record with next, written over a
// tournament that had not finished: "" unless next has just finished.
func finishSummary(next *tournament.Tournament) string {
	if next.Status != tournament.Finished {
		return ""
	}
	s, err := next.Summary()
	if err != nil {
		return ""
	}
	return encodeSummary(s)
}

// historyKey is the key of channel k's finished tournaments.
func (s *Redis) historyKey(k match.Key) string { return s.tagged(k, "tourneys") }

// TournamentHistory returns channel k's finished tournaments, newest first
// (at most tournament.MaxHistory), with one LRANGE; a damaged entry is
// left out. It returns match.ErrUnavailable when Redis cannot be reached,
// and a *match.CorruptError when the key is not a list.
func (s *Redis) TournamentHistory(ctx context.Context, k match.Key) ([]tournament.Summary, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	raw, err := s.c.LRange(ctx, s.historyKey(k), 0, tournament.MaxHistory-1).Result()
	switch {
	case isWrongType(err):
		return nil, s.corrupt("tournament history", wrongKeyType(k, s.historyKey(k)))
	case err != nil && err != redis.Nil:
		return nil, s.fail("tournament history", k, err)
	}
	return decodeHistory(k, raw), nil
}

func decodeHistory(k match.Key, raw []string) []tournament.Summary {
	out := make([]tournament.Summary, 0, len(raw))
	for _, r := range raw {
		if sum, err := decodeSummary(k, r); err == nil {
			out = append(out, sum)
		}
	}
	return out
}

// TournamentHistory implements the store's TournamentHistory on Memory:
// see Redis.TournamentHistory.
func (m *MemoryTournaments) TournamentHistory(ctx context.Context, k match.Key) ([]tournament.Summary, error) {
	if err := m.begin(ctx, "tournament history", k); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return decodeHistory(k, m.history[k]), nil
}

// recordHistory pushes next's summary when it has just finished, as
// tournamentScript does. Call with mu held.
func (m *MemoryTournaments) recordHistory(next *tournament.Tournament) {
	sum := finishSummary(next)
	if sum == "" {
		return
	}
	h := append([]string{sum}, m.history[next.Key]...)
	m.history[next.Key] = h[:min(len(h), tournament.MaxHistory)]
}
