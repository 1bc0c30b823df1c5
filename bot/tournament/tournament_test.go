package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/engine"
)

var (
	t0  = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	key = match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	org = match.Player{ID: "U0", Name: "Olga"}
)

func player(i int) match.Player {
	return match.Player{ID: fmt.Sprintf("U%d", i), Name: fmt.Sprintf("P%d", i)}
}

// joined returns a tournament of opt with players U1..Un joined.
func joined(t testing.TB, opt Options, n int) *Tournament {
	t.Helper()
	tr, err := New("t1", key, org, opt, t0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if err := tr.Join(player(i)); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func swiss(rounds int) Options {
	c, _ := clock.NewLive(5, 3)
	return Options{Format: Swiss, Rounds: rounds, Clock: c, Board: engine.DefaultConfig()}
}

func TestOptions(t *testing.T) {
	bigBoard := engine.Config{Rows: 11, Cols: 7, Connect: 4}
	for _, tc := range []struct {
		name string
		opt  Options
		want Reason
	}{
		{"swiss", swiss(3), ReasonNone},
		{"swiss, rounds chosen later", swiss(0), ReasonNone},
		{"double round robin", Options{Format: RoundRobin, Double: true, Board: engine.DefaultConfig()}, ReasonNone},
		{"no format", Options{Board: engine.DefaultConfig()}, ReasonFormat},
		{"double swiss", Options{Format: Swiss, Double: true, Board: engine.DefaultConfig()}, ReasonFormat},
		{"rounds 16", swiss(16), ReasonRounds},
		{"rounds -1", swiss(-1), ReasonRounds},
		{"round robin with rounds", Options{Format: RoundRobin, Rounds: 3, Board: engine.DefaultConfig()}, ReasonRounds},
		{"clock 0+0", Options{Format: Swiss, Clock: clock.Control{Kind: clock.Live}, Board: engine.DefaultConfig()}, ReasonClock},
		{"board 11 rows", Options{Format: Swiss, Board: bigBoard}, ReasonBoard},
		{"three players a game", Options{Format: Swiss, Board: engine.Config{Rows: 6, Cols: 7, Connect: 4, Players: 3}}, ReasonBoard},
	} {
		err := tc.opt.Validate()
		if got := ReasonOf(err); got != tc.want || (tc.want == ReasonNone) != (err == nil) {
			t.Errorf("%s: Validate() = %v, want %v", tc.name, err, tc.want)
		}
	}
	// The clock's own reason stays reachable: the bot words "days 99" itself.
	_, cerr := clock.ParseDays("99")
	err := Options{Format: Swiss, Board: engine.DefaultConfig(), Clock: clock.Control{Kind: clock.Correspondence, PerMove: 99 * 24 * time.Hour}}.Validate()
	var ce *clock.Error
	if ReasonOf(err) != ReasonClock || !errors.As(err, &ce) || ce.Reason != clock.ReasonDays || cerr == nil {
		t.Errorf("days 99: %v, want ReasonClock wrapping clock.ReasonDays", err)
	}
}

func TestParseRounds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"1", 1, true}, {"9", 9, true}, {"15", 15, true}, {"007", 7, true},
		{"0", 0, false}, {"16", 0, false}, {"99999999999999999999", 0, false}, {"", 0, false}, {"-3", 0, false}, {"3.5", 0, false}, {"٣", 0, false},
	} {
		got, err := ParseRounds(tc.in)
		if got != tc.want || (err == nil) != tc.ok || !tc.ok && ReasonOf(err) != ReasonRounds {
			t.Errorf("ParseRounds(%q) = %d, %v, want %d ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// TestRefusals: every refused change returns its Reason and leaves the
// tournament exactly as it was.
func TestRefusals(t *testing.T) {
	running := func() *Tournament {
		tr := joined(t, swiss(3), 5)
		if err := tr.Start(org.ID, nil, t0); err != nil {
			t.Fatal(err)
		}
		return tr
	}
	cancelled := func() *Tournament {
		tr := joined(t, swiss(3), 5)
		if err := tr.Cancel(org.ID, t0); err != nil {
			t.Fatal(err)
		}
		return tr
	}
	for _, tc := range []struct {
		name   string
		tr     func() *Tournament
		change func(*Tournament) error
		want   Reason
	}{
		{"join twice", func() *Tournament { return joined(t, swiss(3), 3) }, func(tr *Tournament) error { return tr.Join(player(2)) }, ReasonJoined},
		{"join a started one", running, func(tr *Tournament) error { return tr.Join(player(9)) }, ReasonStarted},
		{"join a cancelled one", cancelled, func(tr *Tournament) error { return tr.Join(player(9)) }, ReasonOver},
		{"join without an id", func() *Tournament { return joined(t, swiss(3), 3) }, func(tr *Tournament) error { return tr.Join(match.Player{Name: "x"}) }, ReasonInvalid},
		{"join a full one", func() *Tournament { return joined(t, swiss(3), MaxPlayers) }, func(tr *Tournament) error { return tr.Join(player(99)) }, ReasonFull},
		{"start by another", func() *Tournament { return joined(t, swiss(3), 4) }, func(tr *Tournament) error { return tr.Start("U1", nil, t0) }, ReasonNotOrganiser},
		{"start twice", running, func(tr *Tournament) error { return tr.Start(org.ID, nil, t0) }, ReasonStarted},
		{"start with two", func() *Tournament { return joined(t, swiss(1), 2) }, func(tr *Tournament) error { return tr.Start(org.ID, nil, t0) }, ReasonTooFew},
		{"swiss of 4 rounds for 4", func() *Tournament { return joined(t, swiss(4), 4) }, func(tr *Tournament) error { return tr.Start(org.ID, nil, t0) }, ReasonRounds},
		{"start a cancelled one", cancelled, func(tr *Tournament) error { return tr.Start(org.ID, nil, t0) }, ReasonOver},
		{"cancel by another", running, func(tr *Tournament) error { return tr.Cancel("U1", t0) }, ReasonNotOrganiser},
		{"cancel twice", cancelled, func(tr *Tournament) error { return tr.Cancel(org.ID, t0) }, ReasonOver},
		{"withdraw a stranger", running, func(tr *Tournament) error { return tr.Withdraw("U9") }, ReasonNotPlayer},
		{"withdraw from a cancelled one", cancelled, func(tr *Tournament) error { return tr.Withdraw("U1") }, ReasonOver},
		{"advance before the start", func() *Tournament { return joined(t, swiss(3), 4) }, func(tr *Tournament) error { _, err := tr.Advance(t0); return err }, ReasonNotStarted},
		{"advance mid-round", running, func(tr *Tournament) error { _, err := tr.Advance(t0); return err }, ReasonRoundUnfinished},
		{"record an unknown game", running, func(tr *Tournament) error { return tr.Record("t1-9-9", pairing.Draw) }, ReasonNoGame},
		{"record no result", running, func(tr *Tournament) error { return tr.Record("t1-1-1", pairing.NoResult) }, ReasonInvalid},
		{"record before the start", func() *Tournament { return joined(t, swiss(3), 4) }, func(tr *Tournament) error { return tr.Record("t1-1-1", pairing.Draw) }, ReasonNotStarted},
		{"record twice", func() *Tournament {
			tr := running()
			if err := tr.Record("t1-1-1", pairing.Draw); err != nil {
				t.Fatal(err)
			}
			return tr
		}, func(tr *Tournament) error { return tr.Record("t1-1-1", pairing.WhiteWins) }, ReasonResultKnown},
		{"withdraw twice", func() *Tournament {
			tr := running()
			if err := tr.Withdraw("U2"); err != nil {
				t.Fatal(err)
			}
			return tr
		}, func(tr *Tournament) error { return tr.Withdraw("U2") }, ReasonWithdrawn},
	} {
		tr := tc.tr()
		before := tr.Clone()
		err := tc.change(tr)
		if got := ReasonOf(err); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if !reflect.DeepEqual(tr, before) {
			t.Errorf("%s: refused, but changed the tournament:\n%+v\nwas\n%+v", tc.name, tr, before)
		}
	}
}

func TestNewRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		id   string
		k    match.Key
		org  match.Player
		opt  Options
		want Reason
	}{
		{"rounds 16", "t1", key, org, swiss(16), ReasonRounds},
		{"bad id", "t 1", key, org, swiss(3), ReasonInvalid},
		{"long id", "abcdefghijklmnopqrstuvwxy", key, org, swiss(3), ReasonInvalid},
		{"bad key", "t1", match.Key{Platform: "slack"}, org, swiss(3), ReasonInvalid},
		{"no organiser", "t1", key, match.Player{}, swiss(3), ReasonInvalid},
	} {
		tr, err := New(tc.id, tc.k, tc.org, tc.opt, t0)
		if ReasonOf(err) != tc.want || tr != nil {
			t.Errorf("%s: New = %v, %v, want %v", tc.name, tr, err, tc.want)
		}
	}
}

// playRound gives every game of the current round a result from rng.
func playRound(t testing.TB, tr *Tournament, rng *rand.Rand) {
	t.Helper()
	for _, g := range tr.Rounds[len(tr.Rounds)-1].Games {
		if g.Result == pairing.NoResult {
			if err := tr.Record(g.GameID, pairing.Result(1+rng.IntN(3))); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestSwissToTheEnd plays a 6-player Swiss of 3 rounds, seeded by rating,
// to the end, checking the value at every step.
func TestSwissToTheEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	tr := joined(t, swiss(3), 6)
	rating := map[string]float64{"U1": 1400, "U2": 1600, "U3": 1500, "U4": 1500, "U5": 1200, "U6": 1700}
	if err := tr.Start(org.ID, func(id string) float64 { return rating[id] }, t0); err != nil {
		t.Fatal(err)
	}
	var seeds []string
	for _, p := range tr.Players {
		seeds = append(seeds, p.ID)
	}
	if want := "[U6 U2 U3 U4 U1 U5]"; fmt.Sprint(seeds) != want {
		t.Errorf("seeds %v, want %v (ties keep join order)", seeds, want)
	}
	if tr.Status != Running || tr.Planned != 3 || tr.Round() != 1 || len(tr.Rounds[0].Games) != 3 {
		t.Fatalf("after Start: %+v", tr)
	}
	if g := tr.Rounds[0].Games[0]; g.GameID != "t1-1-1" || g.White != 0 || g.Black != 3 {
		t.Errorf("board 1 of round 1: %+v, want t1-1-1, seed 1 against seed 4", g)
	}
	for r := 1; r <= 3; r++ {
		if err := tr.Validate(); err != nil {
			t.Fatalf("round %d: %v", r, err)
		}
		playRound(t, tr, rng)
		more, err := tr.Advance(t0.Add(time.Duration(r) * time.Hour))
		if err != nil || more != (r < 3) {
			t.Fatalf("Advance after round %d = %v, %v", r, more, err)
		}
	}
	if tr.Status != Finished || !tr.Ended.Equal(t0.Add(3*time.Hour)) {
		t.Errorf("after round 3: %v ended %v", tr.Status, tr.Ended)
	}
	if err := tr.Validate(); err != nil {
		t.Error(err)
	}
	st, err := tr.Standings()
	if err != nil || len(st) != 6 {
		t.Fatalf("Standings = %v, %v", st, err)
	}
	var total pairing.Points
	for _, s := range st {
		total += s.Score
	}
	if total != 2*9 {
		t.Errorf("scores add to %v half points, want 18 (9 games)", total)
	}
	if _, err := tr.Advance(t0); ReasonOf(err) != ReasonOver {
		t.Errorf("Advance after the end = %v, want ReasonOver", err)
	}
}

// TestRoundRobinWithdrawal: a player who withdraws from a round robin
// loses their later games by forfeit, without records; one who withdraws
// before the start is simply gone.
func TestRoundRobinWithdrawal(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	tr := joined(t, Options{Format: RoundRobin, Board: engine.DefaultConfig()}, 6)
	if err := tr.Withdraw("U6"); err != nil || len(tr.Players) != 5 {
		t.Fatalf("withdraw before the start: %v, %d players", err, len(tr.Players))
	}
	if err := tr.Start(org.ID, nil, t0); err != nil {
		t.Fatal(err)
	}
	if tr.Planned != 5 {
		t.Errorf("round robin of 5: %d rounds, want 5", tr.Planned)
	}
	playRound(t, tr, rng)
	played := 0 // U1's games in round 1: 0 when they sat it out
	for _, g := range tr.Rounds[0].Games {
		if g.White == 0 || g.Black == 0 {
			played++
		}
	}
	if err := tr.Withdraw("U1"); err != nil {
		t.Fatal(err)
	}
	forfeits := 0
	for r := 2; r <= 5; r++ {
		if more, err := tr.Advance(t0); err != nil || !more {
			t.Fatalf("round %d: %v, %v", r, more, err)
		}
		for _, g := range tr.Rounds[r-1].Games {
			if g.White == 0 || g.Black == 0 {
				forfeits++
				if g.GameID != "" || g.White == 0 && g.Result != pairing.BlackWins || g.Black == 0 && g.Result != pairing.WhiteWins {
					t.Errorf("round %d: %+v, want a forfeit win against U1", r, g)
				}
			}
		}
		if b := tr.Rounds[r-1].Bye; b == 0 {
			t.Errorf("round %d: the bye is the withdrawn player's", r)
		}
		playRound(t, tr, rng)
	}
	if forfeits != 4-played { // 4 opponents in a round robin of 5
		t.Errorf("%d forfeits after %d games, want %d", forfeits, played, 4-played)
	}
	if more, err := tr.Advance(t0); more || err != nil || tr.Status != Finished {
		t.Errorf("after the last round: %v, %v, %v", more, err, tr.Status)
	}
}

// TestValidate: a value damaged in each way is refused.
func TestValidate(t *testing.T) {
	good := joined(t, swiss(3), 5)
	if err := good.Start(org.ID, nil, t0); err != nil {
		t.Fatal(err)
	}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		damage func(*Tournament)
	}{
		{"status", func(tr *Tournament) { tr.Status = 9 }},
		{"id", func(tr *Tournament) { tr.ID = "" }},
		{"key", func(tr *Tournament) { tr.Key.Channel = "" }},
		{"organiser", func(tr *Tournament) { tr.Organiser.ID = "" }},
		{"options", func(tr *Tournament) { tr.Options.Format = 0 }},
		{"duplicate player", func(tr *Tournament) { tr.Players[1] = tr.Players[0] }},
		{"player out of range", func(tr *Tournament) { tr.Rounds[0].Games[0].White = 7 }},
		{"player twice in a round", func(tr *Tournament) { tr.Rounds[0].Games[1].Black = tr.Rounds[0].Games[0].White }},
		{"bye out of range", func(tr *Tournament) { tr.Rounds[0].Bye = 40 }},
		{"game id", func(tr *Tournament) { tr.Rounds[0].Games[0].GameID = "a b" }},
		{"game id twice", func(tr *Tournament) { tr.Rounds[0].Games[1].GameID = tr.Rounds[0].Games[0].GameID }},
		{"no id, no result", func(tr *Tournament) { tr.Rounds[0].Games[0].GameID = "" }},
		{"more rounds than planned", func(tr *Tournament) { tr.Planned = 0 }},
		{"finished mid-round", func(tr *Tournament) { tr.Status = Finished }},
		{"result", func(tr *Tournament) { tr.Rounds[0].Games[0].Result = 7 }},
		{"rounds while joining", func(tr *Tournament) { tr.Status = Joining }},
		{"too many players", func(tr *Tournament) {
			for i := range MaxPlayers {
				tr.Players = append(tr.Players, Entrant{Player: player(100 + i)})
			}
		}},
	} {
		tr := good.Clone()
		tc.damage(tr)
		if err := tr.Validate(); ReasonOf(err) == ReasonNone {
			t.Errorf("%s: Validate() = %v, want a refusal", tc.name, err)
		}
	}
}

func TestDefaultRounds(t *testing.T) {
	for n, want := range map[int]int{3: 2, 4: 3, 5: 4, 6: 4, 8: 4, 9: 5, 16: 5, 17: 6, 32: 6} {
		if got := DefaultRounds(n); got != want {
			t.Errorf("DefaultRounds(%d) = %d, want %d", n, got, want)
		}
	}
}

// FuzzParseRounds: never a panic; an accepted number is in range and
// reads back the same.
func FuzzParseRounds(f *testing.F) {
	for _, s := range []string{"1", "0", "15", "16", "", "-1", "007"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseRounds(s)
		if err != nil {
			if ReasonOf(err) != ReasonRounds || n != 0 {
				t.Fatalf("ParseRounds(%q) = %d, %v", s, n, err)
			}
			return
		}
		if n < 1 || n > MaxRounds {
			t.Fatalf("ParseRounds(%q) = %d, out of range", s, n)
		}
		if m, err := ParseRounds(fmt.Sprint(n)); m != n || err != nil {
			t.Fatalf("ParseRounds(%q) = %d; %d reads back as %d, %v", s, n, n, m, err)
		}
	})
}

// TestRecordWinner maps a finished game's winner to the result, and finds
// a player's game in progress.
func TestRecordWinner(t *testing.T) {
	tr := joined(t, swiss(2), 4)
	if err := tr.Start(org.ID, nil, t0); err != nil {
		t.Fatal(err)
	}
	g1, g2 := tr.Rounds[0].Games[0], tr.Rounds[0].Games[1]
	white, black := tr.Players[g1.White].ID, tr.Players[g1.Black].ID
	if g, ok := tr.Playing(black); !ok || g != g1 {
		t.Errorf("Playing(%s) = %+v, %v, want %+v", black, g, ok, g1)
	}
	before := tr.Clone()
	if err := tr.RecordWinner(g1.GameID, tr.Players[g2.White].ID); ReasonOf(err) != ReasonNotPlayer || !reflect.DeepEqual(tr, before) {
		t.Errorf("a winner from another game: %v", err)
	}
	if err := tr.RecordWinner("nope", white); ReasonOf(err) != ReasonNoGame {
		t.Errorf("an unknown game: %v, want ReasonNoGame", err)
	}
	for _, tc := range []struct {
		game   Game
		winner string
		want   pairing.Result
	}{
		{g1, black, pairing.BlackWins},
		{g2, "", pairing.Draw},
	} {
		if err := tr.RecordWinner(tc.game.GameID, tc.winner); err != nil {
			t.Fatal(err)
		}
		for _, g := range tr.Rounds[0].Games {
			if g.GameID == tc.game.GameID && g.Result != tc.want {
				t.Errorf("RecordWinner(%s, %q): %v, want %v", tc.game.GameID, tc.winner, g.Result, tc.want)
			}
		}
	}
	if _, ok := tr.Playing(black); ok {
		t.Errorf("Playing after the result: still a game")
	}
	if err := tr.RecordWinner(g1.GameID, white); ReasonOf(err) != ReasonResultKnown {
		t.Errorf("a second result: %v, want ReasonResultKnown", err)
	}
}
