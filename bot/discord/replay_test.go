package discord

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestReplayedInteraction sends one signed /connect4 resign interaction,
// captured, twice: the second time, after a rematch began, it changes
// nothing and says so. On Memory and on Redis.
func TestReplayedInteraction(t *testing.T) {
	for _, st := range []struct {
		name string
		make func(t *testing.T) bot.Store
	}{
		{"memory", func(*testing.T) bot.Store { return sessionsMemory() }},
		{"redis", func(t *testing.T) bot.Store {
			c := storetest.Redis(t)
			return storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c)})
		}},
	} {
		t.Run(st.name, func(t *testing.T) {
			store := st.make(t)
			f := newFixture(t, store, 0)
			f.click("UB", f.challenge("UA", "UB"), "Accept")
			captured := f.slashIn("UB", "resign", nil)
			resigned := f.send(captured)
			want(t, resigned, typeMessage, 0, "<@UB> resigned. <@UA> wins!")
			offer := f.click("UA", resigned, "Rematch")
			want(t, f.click("UB", offer, "Accept"), typeUpdate, 0, "Rematch!")
			want(t, f.send(captured), typeMessage, flagEphemeral, "already handled") // the same interaction id, signed anew
			// The captured bytes and signature, the signature in upper-case
			// hex (which the check accepts): the same interaction.
			body := mustJSON(t, captured)
			h := sign(f.priv, strconv.FormatInt(time.Now().Unix(), 10), body)
			h.Set("X-Signature-Ed25519", strings.ToUpper(h.Get("X-Signature-Ed25519")))
			if w := f.do(body, h); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "already handled") {
				t.Errorf("the replay with an upper-case signature: %d %q, want the already-handled note", w.Code, w.Body)
			}
			rec, err := store.PlayerGame(t.Context(), match.Key{Platform: Platform, Workspace: guildID, Channel: chanID}, "UB")
			if err != nil || rec.Status != match.StatusPlaying {
				t.Errorf("the rematch after a replayed resign: %+v, %v; want it playing", rec, err)
			}
		})
	}
}
