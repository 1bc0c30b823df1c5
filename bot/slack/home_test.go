package slack

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/glicko"
	"github.com/connect4/connect4/bot/internal/seal"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions/storetest"
)

func TestHomeView(t *testing.T) {
	k := match.Key{Platform: Platform, Workspace: "T1", Channel: "C1"}
	playing := storetest.Playing(t, k)
	playing.Message = match.MessageRef{Channel: "C1", Timestamp: "1700000000.000100"}
	hostile := storetest.Playing(t, match.Key{Platform: Platform, Workspace: "T1", Channel: "C2"})
	hostile.Message = match.MessageRef{Channel: "C2", Timestamp: "1|<https://evil.example|x>"}
	won := storetest.Playing(t, k)
	won.Status, won.Finish = match.StatusFinished, match.FinishResign
	won.Rounds = []match.RoundResult{{Winner: storetest.Alice.ID, Finish: match.FinishResign}}
	drawn := storetest.Playing(t, k)
	drawn.Status, drawn.Finish = match.StatusFinished, match.FinishDraw
	drawn.Rounds = []match.RoundResult{{Finish: match.FinishDraw}}
	rating := &match.PlayerRating{Rating: glicko.Rating{Rating: 1612.4}}
	os := []bot.Overview{
		{Key: k, Game: playing, Standing: match.Standing{Wins: 3, Losses: 1, Draws: 2, Rating: rating}, Last: won},
		{Key: hostile.Key, Game: hostile, Last: drawn},
	}
	tests := []struct {
		user, url string
		want, not []string
	}{
		{storetest.Alice.ID, "https://t1.slack.com/", []string{
			"Against <@UBOB> in <#C1>: <https://t1.slack.com/archives/C1/p1700000000000100|go to the game>",
			"Against <@UBOB> in <#C2>", "<#C1>: 1,612 (3 won, 1 lost, 2 drawn)", "Won against <@UBOB> in <#C1>",
			"Draw against <@UBOB> in <#C2>", "`/connect4 ai`"}, []string{"evil", "No game in progress"}},
		{storetest.Bob.ID, "", []string{"Against <@UALICE> in <#C1>\n", "Lost against <@UALICE> in <#C1>"}, []string{"archives"}},
	}
	for _, tt := range tests {
		v := homeView(lang.English, tt.url, tt.user, os)
		b, _ := json.Marshal(v)
		text := strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `\n`, "\n").Replace(string(b))
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("home of %s lacks %q:\n%s", tt.user, w, text)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(text, n) {
				t.Errorf("home of %s has %q:\n%s", tt.user, n, text)
			}
		}
		if v.Type != "home" || len(v.Blocks.BlockSet) > 100 {
			t.Errorf("view of type %q with %d blocks", v.Type, len(v.Blocks.BlockSet))
		}
	}
	empty := homeView(lang.German, "", "U1", nil)
	b, _ := json.Marshal(empty)
	for _, w := range []string{"Kein laufendes Spiel", "Noch kein gewertetes Spiel", "Noch kein beendetes Spiel"} {
		if !strings.Contains(string(b), w) {
			t.Errorf("an empty German home lacks %q: %s", w, b)
		}
	}
}

func TestPageLang(t *testing.T) {
	tests := []struct {
		header string
		want   lang.Lang
	}{
		{"", lang.English}, {"de-DE,de;q=0.9,en;q=0.8", lang.German}, {"sv-SE, pt-BR;q=0.8", lang.PortugueseBR},
		{"*", lang.English}, {"ja", lang.Japanese}, {strings.Repeat("xx,", 100) + "fr", lang.English},
	}
	for _, tt := range tests {
		if got := pageLang(tt.header); got != tt.want {
			t.Errorf("pageLang(%.40q) = %v, want %v", tt.header, got, tt.want)
		}
	}
}

// FuzzCheckState: no input panics, and nothing but a state the adapter
// made passes.
func FuzzCheckState(f *testing.F) {
	ws := &workspaces{}
	keys, err := parseTestKey()
	if err != nil {
		f.Fatal(err)
	}
	ws.keys = keys
	now := timeZero()
	good := ws.newState(now)
	f.Add(good)
	f.Add("")
	f.Add("a.b.c")
	f.Add(good[:len(good)-1])
	f.Fuzz(func(t *testing.T, s string) {
		nonce, left, err := ws.checkState(s, now)
		if err == nil && (s != good || nonce == "" || left <= 0) {
			t.Errorf("checkState(%q) accepted it: %q %v", s, nonce, left)
		}
	})
}

func parseTestKey() (*seal.Keys, error) { return seal.Parse(newKey()) }

func timeZero() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }
