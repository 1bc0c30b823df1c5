package slack

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// tourWebAPI is a local stand-in for the few Web API methods a tournament
// uses: it records chat.postMessage and chat.update, each post getting a
// new ts.
type tourWebAPI struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls []tourWebCall
	n     int
}

type tourWebCall struct{ method, ts, body string }

func newTourWebAPI(t *testing.T) *tourWebAPI {
	w := &tourWebAPI{}
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		rw.Header().Set("Content-Type", "application/json")
		method := strings.TrimPrefix(r.URL.Path, "/")
		w.mu.Lock()
		defer w.mu.Unlock()
		switch method {
		case "auth.test":
			fmt.Fprintf(rw, `{"ok":true,"user_id":%q,"user":"connect4","team_id":%q}`, botUserID, testTeam)
		case "users.info":
			id := r.FormValue("user")
			fmt.Fprintf(rw, `{"ok":true,"user":{"id":%q,"name":%q,"is_admin":%t,"locale":"en-US"}}`, id, strings.ToLower(id), id == adminID)
		case "chat.postMessage":
			w.n++
			ts := fmt.Sprintf("1700000500.%06d", w.n)
			w.calls = append(w.calls, tourWebCall{method, ts, r.PostForm.Encode()})
			fmt.Fprintf(rw, `{"ok":true,"channel":%q,"ts":%q}`, r.FormValue("channel"), ts)
		case "chat.update":
			w.calls = append(w.calls, tourWebCall{method, r.FormValue("ts"), r.PostForm.Encode()})
			fmt.Fprintf(rw, `{"ok":true,"channel":%q,"ts":%q}`, r.FormValue("channel"), r.FormValue("ts"))
		default:
			fmt.Fprint(rw, `{"ok":false,"error":"unknown_method"}`)
		}
	}))
	t.Cleanup(w.srv.Close)
	return w
}

// waitFor waits until a call of method whose body holds every fragment
// (query-escaped, as the form carries it) has come, and returns it.
func (w *tourWebAPI) waitFor(t *testing.T, method string, fragments ...string) tourWebCall {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		w.mu.Lock()
		for i, c := range w.calls {
			ok := c.method == method
			for _, f := range fragments {
				ok = ok && strings.Contains(c.body, url.QueryEscape(f))
			}
			if ok {
				w.calls = append(w.calls[:i:i], w.calls[i+1:]...)
				w.mu.Unlock()
				return c
			}
		}
		w.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s with %q", method, fragments)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// clickOn clicks the button of value on the message at ts, as user.
func (e *env) clickOn(user, ts, value string) posted {
	e.t.Helper()
	body := e.clickPayload(user, actionPrefix+"t", value)
	vals, _ := url.ParseQuery(string(body))
	payload := strings.ReplaceAll(vals.Get("payload"), "1700000000.000100", ts)
	status, got := e.clickRaw([]byte(url.Values{"payload": {payload}}.Encode()))
	if status != http.StatusOK || len(got) != 1 {
		e.t.Fatalf("click %s by %s: status %d, %d messages", value, user, status, len(got))
	}
	return got[0]
}

// TestTournamentSlackEndToEnd: through signed slash commands and clicks,
// the schedule's worker and a local Web API: join by button and typed;
// the start posts the pairings and each game's own message (attached);
// a draw offered and accepted by button; an abort refused; the table's
// message (the one the Join button was clicked on) edited in place at
// each round and for the final table; then a tournament on a short clock
// whose games are lost on time by the worker, the next round posted and
// the table edited each time; the history lists both.
func TestTournamentSlackEndToEnd(t *testing.T) {
	api := newTourWebAPI(t)
	st := storetest.NewMemory(t, sessions.Options{})
	e := newEnv(t, st, Config{APIURL: api.srv.URL + "/"})
	k := match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}
	const table = "1700000000.000100" // the message every plain click is on
	m := e.slash(adminID, "tournament new round-robin")
	wantPosted(t, m, inChannel, false, "opens a tournament: round robin")
	wantPosted(t, e.click("UA", m, "Join the tournament"), "", true, "joins the tournament")
	wantPosted(t, e.slash("UA", "tournament join"), ephemeral, false, "You have already joined")
	wantPosted(t, e.slash("UB", "tournament join"), inChannel, false, "2 players have joined")
	api.waitFor(t, "chat.update", "2 players have joined") // the table follows a typed join
	wantPosted(t, e.slash("UC", "tournament join"), inChannel, false, "3 players have joined")
	wantPosted(t, e.slash("UA", "tournament start"), ephemeral, false, "Only the organiser")
	wantPosted(t, e.slash(adminID, "tournament start"), inChannel, false, "Round 1 of 3 begins")
	inPlace := func(says string) {
		t.Helper()
		if c := api.waitFor(t, "chat.update", says); c.ts != table {
			t.Fatalf("the table saying %q was updated at ts %s, want in place at %s", says, c.ts, table)
		}
	}
	inPlace("Round 1 of 3, standings:")
	game := func(round int) *match.Record {
		t.Helper()
		tr, err := st.Tournament(t.Context(), k)
		if err != nil || tr.Round() != round {
			t.Fatalf("tournament at round %d (%v), want %d", tr.Round(), err, round)
		}
		id := tr.Rounds[round-1].Games[0].GameID
		post := api.waitFor(t, "chat.postMessage", "c4:move:"+id, "Offer draw")
		deadline := time.Now().Add(5 * time.Second)
		for {
			rec, err := st.Load(t.Context(), k, id)
			if err == nil && rec.Message.Timestamp == post.ts {
				return rec
			}
			if time.Now().After(deadline) {
				t.Fatalf("game %s: its posted message %s not attached (%+v, %v)", id, post.ts, rec, err)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	g := game(1)
	offer := e.clickOn(g.Challenger.ID, g.Message.Timestamp, bot.Action{Kind: bot.KindDraw, GameID: g.ID}.String())
	wantPosted(t, offer, "", true, "offers a draw")
	accept := e.clickOn(g.Opponent.ID, g.Message.Timestamp, bot.Action{Kind: bot.KindDrawAccept, GameID: g.ID, Move: g.Game.Moves()}.String())
	wantPosted(t, accept, "", true, "accepted the draw", "Round 2 of 3 begins")
	inPlace("Round 2 of 3, standings:")
	g = game(2)
	wantPosted(t, e.slash(g.Challenger.ID, "abort"), ephemeral, false, "A tournament game cannot be aborted")
	wantPosted(t, e.slash(g.Opponent.ID, "resign"), inChannel, false, "Round 3 of 3 begins")
	inPlace("Round 3 of 3, standings:")
	g = game(3)
	wantPosted(t, e.slash(g.Challenger.ID, "resign"), inChannel, false, "Final standings:")
	inPlace("Final standings:")

	// A short clock: every first mover's flag falls at once, by the worker.
	e.slash(adminID, "tournament new swiss rounds 2 clock 0+1")
	for _, u := range []string{"UA", "UB", "UC"} {
		e.slash(u, "tournament join")
	}
	wantPosted(t, e.slash(adminID, "tournament start"), inChannel, false, "Round 1 of 2 begins")
	g = game(1) // its message is attached before the worker runs, so that the flag edits it
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.a.svc.RunSchedule(ctx, st, map[string]bot.Notifier{Platform: e.a}, bot.WorkerOptions{Poll: 5 * time.Millisecond})
	}()
	if c := api.waitFor(t, "chat.update", "ran out of time"); c.ts != g.Message.Timestamp {
		t.Errorf("the flag edited ts %s, want the game's message %s", c.ts, g.Message.Timestamp)
	}
	api.waitFor(t, "chat.postMessage", "Round 2 of 2 begins")
	api.waitFor(t, "chat.postMessage", "Final standings:")
	cancel()
	<-done
	tr, err := st.Tournament(t.Context(), k)
	if err != nil || tr.Status != tournament.Finished {
		t.Fatalf("the short-clock one: %v (%v), want finished on time", tr.Status, err)
	}
	h := e.slash("UB", "tournament history")
	wantPosted(t, h, ephemeral, false, "Finished tournaments here", "Swiss system", "Round robin", "Final standings:")
}
