package discord

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
)

// TestFourPlayersOverHTTP plays a game of 4 with the interactions Discord
// sends: /connect4 challenge with opponent, opponent2 and opponent3,
// three accepts, refused, stale and racing clicks, a resignation that
// leaves three playing, and a win on the board.
func TestFourPlayersOverHTTP(t *testing.T) {
	forEachStore(t, func(t *testing.T, st bot.Store) {
		f := newFixture(t, st, 0)
		key := match.Key{Platform: "discord", Workspace: guildID, Channel: chanID}
		users := []map[string]any{userJSON("UB"), userJSON("UC"), userJSON("UD")}
		four := []map[string]any{opt("opponent", 6, "UB"), opt("opponent2", 6, "UC"), opt("opponent3", 6, "UD"), opt("cols", 4, 9), opt("rows", 4, 7)}

		// The options are checked like the typed ones.
		robot := userJSON("UROBOT")
		robot["bot"] = true
		want(t, f.slash("UA", "challenge", []map[string]any{opt("opponent", 6, "UB"), opt("opponent2", 6, "UROBOT")}, userJSON("UB"), robot),
			typeMessage, flagEphemeral, "is a bot")
		want(t, f.slash("UA", "challenge", []map[string]any{opt("opponent", 6, "UB"), opt("opponent2", 6, "UB")}, userJSON("UB")),
			typeMessage, flagEphemeral, "named twice")
		want(t, f.slash("UA", "challenge", []map[string]any{opt("opponent", 6, "UB"), opt("opponent3", 6, "UC"), opt("cols", 4, 6)}, users...),
			typeMessage, flagEphemeral, "3 players need at least 7 columns")

		c := f.slash("UA", "challenge", four, users...)
		want(t, c, typeMessage, 0, "<@UA> challenges <@UB>, <@UC> and <@UD> to a game of Connect Four for 4 players", "9 columns × 7 rows")
		if am := c.Data.AllowedMentions; am == nil || !slices.Equal(am.Users, []string{"UB", "UC", "UD"}) {
			t.Fatalf("allowed_mentions %+v, want the three invited players only", c.Data.AllowedMentions)
		}
		want(t, f.click("UE", c, "Accept"), typeMessage, flagEphemeral, "only they can answer")
		m := f.click("UD", c, "Accept")
		want(t, m, typeUpdate, 0, "Accepted: <@UD>.", "<@UB> and <@UC>, do you accept?")
		m = f.click("UB", m, "Accept")
		want(t, m, typeUpdate, 0, "Accepted: <@UD> and <@UB>.")
		m = f.click("UC", m, "Accept")
		want(t, m, typeUpdate, 0, "everyone is in!", "🔴 <@UA> vs 🟡 <@UB> vs 🟢 <@UC> vs 🔵 <@UD>", "🔴 <@UA>, it's your turn (move 1)")
		if got := len(rowSizes(m)); got != 2 {
			t.Fatalf("%d rows of buttons for 9 columns, want 2", got)
		}
		first := m
		want(t, f.click("UB", m, "1"), typeMessage, flagEphemeral, "not your turn")
		order := []string{"UA", "UB", "UC", "UD"}
		for i, col := range []int{1, 2, 3, 4} {
			m = f.click(order[i], m, strconv.Itoa(col))
			want(t, m, typeUpdate, 0, "dropped a disc in column "+strconv.Itoa(col))
		}
		want(t, m, typeUpdate, 0, "🔵", "🔴 <@UA>, it's your turn (move 5)")
		want(t, f.click("UA", first, "5"), typeMessage, flagEphemeral, "out of date")

		// Racing clicks: all four players on many columns of one board at
		// once, UA, whose move it is, three times on column 1.
		var bodies [][]byte
		for i := range 12 {
			col := 1 + i%9
			if order[i%4] == "UA" {
				col = 1
			}
			in := f.clickIn(order[i%4], m.button(t, strconv.Itoa(col)).CustomID)
			b, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			bodies = append(bodies, b)
		}
		var wg sync.WaitGroup
		codes := make([]int, len(bodies))
		for i, b := range bodies {
			wg.Go(func() { codes[i] = f.do(b, sign(f.priv, strconv.FormatInt(time.Now().Unix(), 10), b)).Code })
		}
		wg.Wait()
		rec, err := f.store.PlayerGame(t.Context(), key, "UA")
		if err != nil || rec.Game.Moves() != 5 || rec.Game.History()[4] != 0 || slices.ContainsFunc(codes, func(c int) bool { return c != http.StatusOK }) {
			t.Fatalf("after racing clicks: history %v, codes %v, %v; want exactly UA's move in column 1", rec.Game.History(), codes, err)
		}

		// UC resigns: UA, UB and UD play on; UC's turns are skipped.
		r := f.slash("UC", "resign", nil)
		want(t, r, typeMessage, 0, "<@UC> resigned and leaves the game; their discs stay.", "🟢 <@UC> (left)", "🟡 <@UB>, it's your turn (move 6)")
		want(t, f.slash("UC", "resign", nil), typeMessage, flagEphemeral, "You've left this game")
		m = r
		for _, mv := range []struct {
			who string
			col int
		}{{"UB", 2}, {"UD", 4}, {"UA", 1}, {"UB", 2}, {"UD", 4}} {
			m = f.click(mv.who, m, strconv.Itoa(mv.col))
			want(t, m, typeUpdate, 0, "<@"+mv.who+"> dropped a disc")
		}
		want(t, f.click("UC", m, "1"), typeMessage, flagEphemeral, "You've left this game")
		m = f.click("UA", m, "1")
		want(t, m, typeUpdate, 0, "<@UA> wins!", "🟥")
		for _, id := range order {
			st, err := f.store.Stats(t.Context(), key, id)
			want := [3]int{0, 1, 0}
			if id == "UA" {
				want = [3]int{1, 0, 0}
			}
			if err != nil || [3]int{st.Wins, st.Losses, st.Draws} != want {
				t.Errorf("stats of %s = %+v, %v; want %v", id, st, err, want)
			}
		}
		m.button(t, "Rematch")
	})
}

func TestChallengeOptionsForThreeAndFour(t *testing.T) {
	var sub *struct{ names []string }
	for _, o := range Commands()[0].Options {
		if o.Name == "challenge" {
			sub = &struct{ names []string }{}
			for _, so := range o.Options {
				sub.names = append(sub.names, so.Name)
				if (so.Name == "opponent2" || so.Name == "opponent3") && (so.Required || so.Type != 6) {
					t.Errorf("option %s: required %v type %d, want an optional user", so.Name, so.Required, so.Type)
				}
			}
		}
	}
	if sub == nil || !slices.Contains(sub.names, "opponent2") || !slices.Contains(sub.names, "opponent3") || sub.names[0] != "opponent" {
		t.Fatalf("challenge options %v, want opponent first and opponent2, opponent3", sub)
	}
}
