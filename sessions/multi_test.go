package sessions

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// multiRecord returns a valid game of players (3 or 4) after moves, with
// leaves applied in order after the moves.
func multiRecord(t testing.TB, players int, moves []int, leaves ...engine.Player) *match.Record {
	t.Helper()
	g, err := engine.New(engine.Config{Rows: 6, Cols: 7, Connect: 4, Players: players})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range moves {
		if err := g.Play(g.Turn(), c); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range leaves {
		if err := g.Resign(p); err != nil {
			t.Fatal(err)
		}
	}
	others := []match.Player{{ID: "U3", Name: "Cat"}, {ID: "U4", Name: "Dan"}}[:players-2]
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	return &match.Record{
		Key: match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}, ID: "multi_game-1", Version: 2, Status: match.StatusPlaying,
		Challenger: match.Player{ID: "U1", Name: "Ann"}, Opponent: match.Player{ID: "U2", Name: "Ben"}, Others: others,
		RedID: "U2", Game: g, FirstTo: 1, Created: now, Updated: now,
	}
}

func TestMultiRecordRoundTrip(t *testing.T) {
	pending := multiRecord(t, 4, nil)
	pending.Status, pending.RedID, pending.Accepted = match.StatusPending, "", []string{"U4", "U2"}
	pending.ExpiresAt = pending.Created.Add(time.Minute)
	finished := multiRecord(t, 3, []int{0, 1, 2, 3}, engine.Green, engine.Red)
	finished.Status, finished.Finish = match.StatusFinished, match.FinishResign
	finished.Rounds = []match.RoundResult{{Winner: finished.PlayerOf(engine.Yellow).ID, Finish: match.FinishResign}}
	finished.Offer = &match.Offer{Kind: match.OfferRematch, From: "U3", Agreed: []string{"U1"}, ExpiresAt: time.UnixMilli(finished.Created.UnixMilli() + 5000).UTC()}
	expired := multiRecord(t, 3, nil)
	expired.Status, expired.Finish, expired.RedID, expired.Accepted = match.StatusFinished, match.FinishExpired, "", []string{"U3"}
	for name, r := range map[string]*match.Record{
		"pending": pending, "playing": multiRecord(t, 4, []int{3, 3, 4, 4, 5}, engine.Blue), "finished": finished, "expired": expired,
	} {
		t.Run(name, func(t *testing.T) {
			b, err := encodeRecord(r, "op1")
			if err != nil {
				t.Fatal(err)
			}
			var head struct{ Schema int }
			if err := json.Unmarshal(b, &head); err != nil || head.Schema != schemaMulti {
				t.Fatalf("schema %d (%v), want %d for a game of %d", head.Schema, err, schemaMulti, r.NumPlayers())
			}
			got, err := decodeRecord(r.Key, b)
			if err != nil {
				t.Fatalf("decodeRecord(%s): %v", b, err)
			}
			if !reflect.DeepEqual(got, r) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, r)
			}
		})
	}
}

// TestTwoPlayerStoredForm: a two-player record is written in schema 1 with
// exactly the fields the previous version reads (it refuses unknown
// fields), so replicas of that version read what this one writes.
func TestTwoPlayerStoredForm(t *testing.T) {
	previous := []string{"schema", "op", "key", "id", "version", "status", "finish", "expires_ms", "expires",
		"challenger", "opponent", "red", "rows", "cols", "connect", "first_to", "rounds", "game", "ai",
		"rematches", "message", "rating", "offer", "takeback", "created", "updated"}
	r := validRecord(t)
	r.Offer = nil
	r.Status, r.Finish = match.StatusFinished, match.FinishWin
	r.Offer = &match.Offer{Kind: match.OfferRematch, From: "U1", ExpiresAt: time.UnixMilli(1e12).UTC()}
	b, err := encodeRecord(r, "op1")
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	for f := range fields {
		if !slices.Contains(previous, f) {
			t.Errorf("two-player record writes field %q, unknown to the previous version", f)
		}
	}
	if string(fields["schema"]) != "1" || strings.Contains(string(fields["offer"]), "agreed") {
		t.Errorf("schema %s, offer %s: want schema 1 and the offer as before", fields["schema"], fields["offer"])
	}
}

func TestMultiRecordCorrupt(t *testing.T) {
	r := multiRecord(t, 3, []int{0})
	b, err := encodeRecord(r, "op1")
	if err != nil {
		t.Fatal(err)
	}
	raw := string(b)
	two, err := encodeRecord(validRecord(t), "op1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, raw, want string }{
		{"others under schema 1", strings.Replace(raw, `"schema":2`, `"schema":1`, 1), "schema version 1"},
		{"schema 2 without others", strings.Replace(string(two), `"schema":1`, `"schema":2`, 1), "schema version 2"},
		{"accepts on a two-player record", strings.Replace(string(two), `"red":`, `"accepted":["U2"],"red":`, 1), "schema version 1"},
		{"an other twice", strings.Replace(raw, `"others":[{"id":"U3","name":"Cat"}]`, `"others":[{"id":"U2","name":"Cat"}]`, 1), "named twice"},
		{"more others than the game", strings.Replace(raw, `"others":[{"id":"U3","name":"Cat"}]`, `"others":[{"id":"U3"},{"id":"U4"}]`, 1), "variant"},
		{"too many others", strings.Replace(raw, `"others":[{"id":"U3","name":"Cat"}]`, `"others":[{"id":"U3"},{"id":"U4"},{"id":"U5"}]`, 1), "too many players"},
		{"accepts while playing", strings.Replace(raw, `"red":`, `"accepted":["U3"],"red":`, 1), "accepts on a playing record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.raw == raw || tc.raw == string(two) {
				t.Fatalf("the replacement did not apply to %s", raw)
			}
			_, err := decodeRecord(r.Key, []byte(tc.raw))
			if !errors.Is(err, match.ErrCorrupt) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("decodeRecord = %v, want a corrupt record saying %q", err, tc.want)
			}
		})
	}
}

// FuzzDecodeMultiRecord is FuzzDecodeRecord from records of 3 and 4
// players: whatever decodes is valid and survives another round trip.
func FuzzDecodeMultiRecord(f *testing.F) {
	pending := multiRecord(f, 4, nil)
	pending.Status, pending.RedID, pending.Accepted = match.StatusPending, "", []string{"U3"}
	finished := multiRecord(f, 3, []int{0, 1, 2}, engine.Red, engine.Yellow)
	finished.Status, finished.Finish = match.StatusFinished, match.FinishResign
	finished.Rounds = []match.RoundResult{{Winner: finished.PlayerOf(engine.Green).ID, Finish: match.FinishResign}}
	finished.Offer = &match.Offer{Kind: match.OfferRematch, From: "U1", Agreed: []string{"U3"}}
	for _, r := range []*match.Record{pending, finished, multiRecord(f, 4, []int{1, 2, 3, 4, 5}, engine.Blue)} {
		b, err := encodeRecord(r, "op")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	k := match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRecord(k, b)
		if err != nil {
			if !errors.Is(err, match.ErrCorrupt) {
				t.Fatalf("decodeRecord error %v does not match match.ErrCorrupt", err)
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("decoded an invalid record: %v", err)
		}
		b2, err := encodeRecord(r, "op")
		if err != nil {
			t.Fatalf("re-encode a valid record: %v", err)
		}
		r2, err := decodeRecord(k, b2)
		if err != nil || !reflect.DeepEqual(r, r2) {
			t.Fatalf("second round trip: %v\n got %+v\nwant %+v", err, r2, r)
		}
	})
}
