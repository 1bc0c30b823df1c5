package bot

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
	"github.com/redis/go-redis/v9"
)

// TestTournamentScheduleRacing: a tournament's own schedule entries, its
// start at a set time and its round's time limit, each fire once when two
// replicas' workers race for them, on each store: one start, one "time is
// up" and one next round, whichever worker claims what.
func TestTournamentScheduleRacing(t *testing.T) {
	t.Parallel()
	type replicas func(t *testing.T, now func() time.Time) []Store
	twoOn := func(t *testing.T, c redis.UniversalClient, now func() time.Time) []Store {
		prefix := storetest.Prefix(t, c)
		return []Store{storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: now}),
			storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: now})}
	}
	stores := map[string]replicas{
		"memory": func(t *testing.T, now func() time.Time) []Store {
			m := storetest.NewMemory(t, sessions.Options{Now: now})
			return []Store{m, m}
		},
		"redis": func(t *testing.T, now func() time.Time) []Store { return twoOn(t, storetest.Redis(t), now) },
		"cluster": func(t *testing.T, now func() time.Time) []Store {
			if testing.Short() {
				t.Skip("a private cluster takes seconds to start")
			}
			return twoOn(t, storetest.SharedCluster(t), now)
		},
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			clk := storetest.NewClock(time.Now().UTC().Truncate(time.Second))
			sts := mk(t, clk.Now)
			svcs := []*Service{New(sts[0], Options{AI: lowestColumn, Now: clk.Now}), New(sts[1], Options{AI: lowestColumn, Now: clk.Now})}
			k := match.Key{Platform: "test", Workspace: "T1", Channel: "R" + name}
			run := func(i int, user, text string) Reply {
				return svcs[i%2].HandleText(t.Context(), Command{Key: k, User: player(user), CanManage: true}, text)
			}
			if r := run(0, "UO", "tournament new swiss rounds 2 round 30m start in 1h"); r.Problem != ProblemNone {
				t.Fatalf("new: %q", r.Text)
			}
			for i, id := range []string{"U1", "U2", "U3", "U4"} {
				if r := run(i, id, "tournament join"); r.Problem != ProblemNone {
					t.Fatalf("join %s: %q", id, r.Text)
				}
			}
			// race has both replicas' workers claim and fire what is due,
			// at once, a few times over, and returns what they posted.
			race := func() string {
				var mu sync.Mutex
				var posted []string
				var wg sync.WaitGroup
				for i := range svcs {
					wg.Add(1)
					go func() {
						defer wg.Done()
						sched := sts[i].(Schedule)
						for range 3 {
							due, err := sched.Claim(context.Background(), 100, time.Minute)
							if err != nil {
								t.Error(err)
								return
							}
							for _, d := range due {
								n, err := svcs[i].Fire(context.Background(), d)
								if err != nil {
									t.Errorf("replica %d: Fire(%v): %v", i, d.Kind, err)
									continue
								}
								if err := sched.Done(context.Background(), d); err != nil {
									t.Error(err)
								}
								if n.Post != nil {
									mu.Lock()
									posted = append(posted, n.Post.Text)
									mu.Unlock()
								}
							}
						}
					}()
				}
				wg.Wait()
				return strings.Join(posted, "\n")
			}
			ts := sts[0].(TournamentStore)

			clk.Advance(time.Hour + time.Second)
			said := race()
			if n := strings.Count(said, "Round 1 of 2 begins"); n != 1 {
				t.Fatalf("at the start time, round 1 said %d times, want once:\n%s", n, said)
			}
			tr, err := ts.Tournament(t.Context(), k)
			if err != nil || tr.Status != tournament.Running || tr.Round() != 1 {
				t.Fatalf("after the start time: %v round %d (%v), want running round 1", tr.Status, tr.Round(), err)
			}

			clk.Advance(30*time.Minute + time.Second)
			said = race()
			for _, want := range []string{"Round 1's time is up", "Round 2 of 2 begins"} {
				if n := strings.Count(said, want); n != 1 {
					t.Errorf("after round 1's limit, %q said %d times, want once:\n%s", want, n, said)
				}
			}
			tr, err = ts.Tournament(t.Context(), k)
			if err != nil || tr.Round() != 2 {
				t.Fatalf("after round 1's limit: round %d (%v), want 2", tr.Round(), err)
			}
			for b, g := range tr.Rounds[0].Games {
				if g.Result != pairing.Draw { // no clock: a game unfinished at the limit is drawn
					t.Errorf("round 1 board %d: %v, want a draw", b+1, g.Result)
				}
			}
			if said := race(); said != "" {
				t.Errorf("nothing more due, yet posted:\n%s", said)
			}
		})
	}
}
