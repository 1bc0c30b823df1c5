package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestTournamentRefusals holds each bad tournament command to one clear
// line that changes nothing.
func TestTournamentRefusals(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		manage := func(user, text string) Reply {
			return h.svc.HandleText(t.Context(), Command{Key: h.key, User: player(user), Self: h.self, CanManage: true}, text)
		}
		for _, c := range []struct{ text, want string }{
			{"tournament new swiss rounds 0", "Rounds go from 1 to 15"},
			{"tournament new swiss clock 0+0", ""},
			{"tournament new swiss days 99", ""},
			{"tournament new knockout", `"knockout" is not a tournament format`},
			{"tournament new round-robin rounds 3", "follow from its players"},
			{"tournament new swiss double", "Only a round robin can be double"},
		} {
			r := manage("UO", c.text)
			if r.Problem == ProblemNone || strings.Contains(r.Text, "\n") || !strings.Contains(r.Text, c.want) {
				t.Errorf("%q: %v %q, want a one-line refusal with %q", c.text, r.Problem, r.Text, c.want)
			}
		}
		if r := h.say("UO", "tournament new swiss"); r.Problem != ProblemNotManager {
			t.Errorf("a non-manager opening one: %v %q, want %v", r.Problem, r.Text, ProblemNotManager)
		}
		r := manage("UO", "tournament new swiss rounds 2 clock 5+3 7x6")
		h.want(r, Public, ProblemNone, "<@UO> opens a tournament: Swiss system")
		j := h.click("UA", r, "Join the tournament")
		h.want(j, Update, ProblemNone, "<@UA> joins the tournament", "1 player has joined: <@UA>")
		h.want(h.say("UA", "tournament join"), Ephemeral, ProblemAlreadyAccepted, "You have already joined this tournament.")
		h.want(h.say("UB", "tournament join"), Public, ProblemNone, "2 players have joined")
		h.want(h.say("UO", "tournament start"), Ephemeral, ProblemNotStarted, "Too few players to start: it needs at least 3; wait for more to join.")
		h.want(h.say("UC", "tournament join"), Public, ProblemNone, "3 players have joined")
		h.want(h.say("UA", "tournament start"), Ephemeral, ProblemOnlyChallenger, "Only the organiser")
		h.want(manage("UO", "tournament new round-robin"), Ephemeral, ProblemBusy, "already has a tournament")
		h.want(h.say("UO", "tournament start"), Public, ProblemNone, "Round 1 of 2 begins", "sits this round out")
		h.want(h.say("UD", "tournament join"), Ephemeral, ProblemNotForYou, "already started")
		h.want(h.say("UO", "tournament start"), Ephemeral, ProblemNotForYou, "already started")
		h.want(h.say("UA", "tournament"), Public, ProblemNone, "Round 1 of 2, standings:")
	})
}

// TestTournamentSwissRacing plays a Swiss of 6 players and 3 rounds to
// its end on two replicas of one store, every game of a round ending at
// once on one replica or the other: each round is paired and announced
// once, and the final table is what the results say.
func TestTournamentSwissRacing(t *testing.T) {
	t.Parallel()
	stores := map[string]func(t *testing.T) []Store{
		"memory": func(t *testing.T) []Store {
			m := storetest.NewMemory(t, sessions.Options{})
			return []Store{m, m}
		},
		"redis": func(t *testing.T) []Store { return twoReplicas(t, storetest.Redis(t)) },
		"cluster": func(t *testing.T) []Store {
			if testing.Short() {
				t.Skip("a private cluster takes seconds to start")
			}
			return twoReplicas(t, storetest.SharedCluster(t))
		},
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sts := mk(t)
			k := match.Key{Platform: "test", Workspace: "T1", Channel: "S" + name}
			svcs := []*Service{New(sts[0], Options{AI: lowestColumn}), New(sts[1], Options{AI: lowestColumn})}
			run := func(i int, user, text string, manage bool) Reply {
				return svcs[i%2].HandleText(context.Background(), Command{Key: k, User: player(user), CanManage: manage}, text)
			}
			if r := run(0, "UO", "tournament new swiss rounds 3 clock 5+3", true); r.Problem != ProblemNone {
				t.Fatalf("new: %q", r.Text)
			}
			ids := []string{"U1", "U2", "U3", "U4", "U5", "U6"}
			for i, id := range ids {
				if r := run(i, id, "tournament join", false); r.Problem != ProblemNone {
					t.Fatalf("join %s: %q", id, r.Text)
				}
			}
			start := run(1, "UO", "tournament start", false)
			if !strings.Contains(start.Text, "Round 1 of 3 begins") {
				t.Fatalf("start: %q", start.Text)
			}
			ts := sts[0].(TournamentStore)
			score := map[string]pairing.Points{}
			pairs := map[[2]string]bool{}
			for round := 1; round <= 3; round++ {
				tt, err := ts.Tournament(t.Context(), k)
				if err != nil || tt.Round() != round {
					t.Fatalf("round %d: tournament at round %d, err %v", round, tt.Round(), err)
				}
				var mu sync.Mutex
				var news []string
				var wg sync.WaitGroup
				for b, g := range tt.Rounds[round-1].Games {
					w, bl := tt.Players[g.White].ID, tt.Players[g.Black].ID
					pair := [2]string{min(w, bl), max(w, bl)}
					if pairs[pair] {
						t.Errorf("round %d pairs %s and %s again", round, w, bl)
					}
					pairs[pair] = true
					if _, err := sts[1].Load(t.Context(), k, g.GameID); err != nil {
						t.Fatalf("round %d board %d: game %s not created: %v", round, b+1, g.GameID, err)
					}
					loser, winner := w, bl // who resigns: White on odd boards, Black on even ones
					if b%2 == 1 {
						loser, winner = bl, w
					}
					score[winner] += 2
					wg.Add(1)
					go func() {
						defer wg.Done()
						r := run(b, loser, "resign", false)
						mu.Lock()
						defer mu.Unlock()
						if r.Problem != ProblemNone {
							t.Errorf("resign %s: %q", loser, r.Text)
						}
						news = append(news, r.Text)
					}()
				}
				wg.Wait()
				said := strings.Join(news, "\n")
				next := fmt.Sprintf("Round %d of 3 begins", round+1)
				if round == 3 {
					next = "Final standings:"
				}
				if n := strings.Count(said, next); n != 1 {
					t.Errorf("after round %d, %q said %d times, want once:\n%s", round, next, n, said)
				}
			}
			tt, err := ts.Tournament(t.Context(), k)
			if err != nil || tt.Status != tournament.Finished || len(tt.Rounds) != 3 {
				t.Fatalf("at the end: %v rounds %d err %v, want finished after 3", tt.Status, len(tt.Rounds), err)
			}
			st, err := tt.Standings()
			if err != nil {
				t.Fatal(err)
			}
			total := pairing.Points(0)
			for i, s := range st {
				id := tt.Players[s.Player].ID
				if s.Score != score[id] {
					t.Errorf("%s scored %v, want %v", id, s.Score, score[id])
				}
				if i > 0 && s.Score > st[i-1].Score {
					t.Errorf("place %d (%v) above place %d (%v)", i+1, s.Score, i, st[i-1].Score)
				}
				total += s.Score
			}
			if total != 18 {
				t.Errorf("points in all: %v half points, want 18 (9 games)", total)
			}
			// The final table is recorded once, whichever replica finished it.
			h, err := ts.TournamentHistory(t.Context(), k)
			if err != nil || len(h) != 1 || h[0].ID != tt.ID || len(h[0].Places) != 6 || h[0].Places[0].Score != st[0].Score {
				t.Errorf("history %+v (%v), want this tournament once, its final table as played", h, err)
			}
		})
	}
}

// TestTournamentWithdrawCancel: a player who withdraws mid-game loses
// that game by forfeit and the next round scores their pairing as a
// forfeit; the organiser's cancel ends the tournament for everyone.
func TestTournamentWithdrawCancel(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		r := h.svc.HandleText(t.Context(), Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new round-robin")
		h.want(r, Public, ProblemNone, "opens a tournament")
		for _, u := range []string{"UA", "UB", "UC", "UD"} {
			h.want(h.say(u, "tournament join"), Public, ProblemNone, "joins the tournament")
		}
		h.want(h.say("UO", "tournament start"), Public, ProblemNone, "Round 1 of 3 begins", "Board 2:")
		h.want(h.say("UB", "abort"), Ephemeral, ProblemGameOver, "A tournament game cannot be aborted")
		w := h.say("UA", "tournament withdraw")
		h.want(w, Public, ProblemNone, "<@UA> withdraws from the tournament.", "<@UA>'s game in progress is lost by forfeit.")
		if g, err := h.store.PlayerGame(t.Context(), h.key, "UA"); err == nil {
			t.Fatalf("UA still in game %s after withdrawing", g.ID)
		}
		h.want(h.say("UA", "tournament withdraw"), Ephemeral, ProblemNotInGame, "You are not playing in this tournament.")
		var next Reply
		for _, u := range []string{"UB", "UC", "UD"} {
			if r := h.say(u, "resign"); r.Problem == ProblemNone {
				next = r
				break
			}
		}
		h.want(next, Public, ProblemNone, "Round 2 of 3 begins", "won by forfeit")
		h.want(h.say("UB", "tournament cancel"), Ephemeral, ProblemOnlyChallenger, "Only the organiser")
		h.want(h.say("UO", "tournament cancel"), Public, ProblemNone, "<@UO> cancelled the tournament.", "The tournament is over.")
		h.want(h.say("UB", "tournament join"), Ephemeral, ProblemNoGame, "There is no tournament going on in this channel")
	})
}

// TestTournamentFlagFalls: a tournament game lost on time (the flag, by
// the schedule) is recorded like any other result, and the notice of the
// flag posts the next round.
func TestTournamentFlagFalls(t *testing.T) {
	h, m := timedHarness(t)
	r := h.svc.HandleText(t.Context(), Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new swiss rounds 2 clock 1+0")
	h.want(r, Public, ProblemNone, "opens a tournament")
	for _, u := range []string{"UA", "UB", "UC"} {
		h.want(h.say(u, "tournament join"), Public, ProblemNone, "joins the tournament")
	}
	h.want(h.say("UO", "tournament start"), Public, ProblemNone, "Round 1 of 2 begins")
	h.clock.Advance(2 * time.Minute)
	_, notices := fired(t, h, m)
	var posted []string
	for _, n := range notices {
		if n.Post != nil {
			posted = append(posted, n.Post.Text)
		}
	}
	if len(posted) != 1 || !strings.Contains(posted[0], "Round 2 of 2 begins") {
		t.Fatalf("the flag's notices posted %q, want round 2 once", posted)
	}
	tt, err := m.Tournament(t.Context(), h.key)
	if err != nil || tt.Round() != 2 {
		t.Fatalf("tournament at round %d (%v), want 2", tt.Round(), err)
	}
	if g := tt.Rounds[0].Games[0]; g.Result != pairing.BlackWins {
		t.Fatalf("round 1's game: %v, want won by Black on time (White never moved)", g.Result)
	}
}

// TestTournamentSeedsByRating: Start seeds the players by their rating in
// the channel, the unrated at a new player's rating, ties in join order.
func TestTournamentSeedsByRating(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.drops(h.start("UA", "UC"), 1, 2, 1, 2, 1, 2, 1) // UA wins: above 1500, UC below
		h.svc.HandleText(t.Context(), Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new round-robin")
		for _, u := range []string{"UC", "UB", "UD", "UA"} {
			h.want(h.say(u, "tournament join"), Public, ProblemNone, "joins the tournament")
		}
		h.want(h.say("UO", "tournament start"), Public, ProblemNone, "Round 1 of 3 begins")
		tt, err := h.store.(TournamentStore).Tournament(t.Context(), h.key)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range tt.Players {
			got = append(got, p.ID)
		}
		if want := []string{"UA", "UB", "UD", "UC"}; !slices.Equal(got, want) {
			t.Errorf("seeds %v, want %v", got, want)
		}
	})
}

// TestTournamentRefusalsPointOnward: the refusals about which tournament
// there is name the step that works on the player's platform: how to open
// one when there is none, how to see the one there is, and, for a button
// of a tournament that is over, how to see the channel's latest.
func TestTournamentRefusalsPointOnward(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ctx := t.Context()
		as := func(platform, user, text string) Reply {
			k := h.key
			k.Platform = platform
			return h.svc.HandleText(ctx, Command{Key: k, User: player(user), Self: h.self, CanManage: true}, text)
		}
		tests := []struct {
			platform, text string
			p              Problem
			want           string
		}{
			{"slack", "tournament join", ProblemNoGame, "opens one with `/connect4 tournament new swiss`."},
			{"discord", "tournament join", ProblemNoGame, "opens one with `/connect4 tournament action:new format:swiss`."},
		}
		for _, tc := range tests {
			if r := as(tc.platform, "UA", tc.text); r.Problem != tc.p || !strings.Contains(r.Text, tc.want) {
				t.Errorf("%s %q: %v %q, want %v with %q", tc.platform, tc.text, r.Problem, r.Text, tc.p, tc.want)
			}
		}
		first := h.svc.HandleText(ctx, Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new swiss")
		h.want(first, Public, ProblemNone, "opens a tournament")
		h.want(h.svc.HandleText(ctx, Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new round-robin"),
			Ephemeral, ProblemBusy, "This channel already has a tournament", "`/connect4 tournament` shows it.")
		h.want(h.say("UO", "tournament cancel"), Public, ProblemNone, "cancelled the tournament")
		h.clock.Advance(time.Second) // another id
		h.want(h.svc.HandleText(ctx, Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new swiss"), Public, ProblemNone, "opens a tournament")
		h.want(h.click("UA", first, "Join the tournament"), Ephemeral, ProblemStale,
			"That button belongs to a tournament that is over: `/connect4 tournament` shows this channel's latest one.")
	})
}
