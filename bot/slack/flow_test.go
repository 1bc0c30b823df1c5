package slack

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestGameThroughHTTP plays a whole game through the HTTP endpoints:
// challenge, refused clicks, accept, moves to a win, a stale click and a
// rematch, checking what Slack would receive at each step.
func TestGameThroughHTTP(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		key := match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}

		ch := e.slash("UA", "<@UB|bob>")
		// The challenge pings the challenged player only: the challenger is
		// named in plain text.
		wantPosted(t, ch, inChannel, false, "@ua challenges <@UB> to Connect Four")
		if strings.Contains(ch.Text, "<@UA>") {
			t.Errorf("the challenge mentions (pings) its own challenger: %q", ch.Text)
		}
		if got := labels(ch); !slices.Equal(got, []string{"Accept", "Decline", "Cancel"}) {
			t.Fatalf("challenge buttons %v, want Accept Decline Cancel", got)
		}

		// A spectator and the challenger cannot accept; nothing changes.
		wantPosted(t, e.click("UC", ch, "Accept"), ephemeral, false, "only they can answer")
		wantPosted(t, e.click("UA", ch, "Accept"), ephemeral, false, "your own challenge")
		if rec, err := e.store.PlayerGame(t.Context(), key, "UA"); err != nil || rec.Status != match.StatusPending {
			t.Fatalf("after refused accepts: record %+v, %v; want still pending", rec, err)
		}

		board := e.click("UB", ch, "Accept")
		wantPosted(t, board, "", true, "<@UB> accepted!", ":white_circle:", ":one:")
		if got, want := labels(board), []string{"1", "2", "3", "4", "5", "6", "7", "Offer draw"}; !slices.Equal(got, want) {
			t.Fatalf("board buttons %v, want %v", got, want)
		}
		if s := contextText(board); !strings.Contains(s, "<@UA>, it's your turn") {
			t.Fatalf("status %q, want UA to move", s)
		}
		first := board // kept for a stale click later

		// Wrong player, spectator: ephemeral, the game unchanged.
		wantPosted(t, e.click("UB", board, "4"), ephemeral, false, "not your turn")
		wantPosted(t, e.click("UC", board, "4"), ephemeral, false, "not playing in this game")

		for i, col := range []int{1, 2, 1, 2, 1, 2} {
			mover := []string{"UA", "UB"}[i%2]
			board = e.click(mover, board, strconv.Itoa(col))
			wantPosted(t, board, "", true, "<@"+mover+"> dropped a disc in column "+strconv.Itoa(col))
		}
		before, err := e.store.PlayerGame(t.Context(), key, "UA")
		if err != nil {
			t.Fatal(err)
		}
		// A click on the first board is stale: it changes nothing.
		wantPosted(t, e.click("UA", first, "3"), ephemeral, false, "out of date")
		if after, err := e.store.PlayerGame(t.Context(), key, "UA"); err != nil || after.Version != before.Version {
			t.Fatalf("stale click changed the record: version %d → %d (%v)", before.Version, after.Version, err)
		}

		board = e.click("UA", board, "1")
		wantPosted(t, board, "", true, "<@UA> wins!", ":large_red_square:")
		if got := labels(board); !slices.Equal(got, []string{"Analysis", "Rematch"}) {
			t.Fatalf("buttons after the win %v, want only Analysis and Rematch (full and finished columns are left out)", got)
		}
		if contextText(board) != "" {
			t.Fatalf("status %q after the win, want none", contextText(board))
		}
		st, err := e.store.Stats(t.Context(), key, "UA")
		if err != nil || st.Wins != 1 {
			t.Fatalf("stats of UA = %+v, %v; want 1 win", st, err)
		}

		board = e.click("UB", board, "Rematch")
		wantPosted(t, board, "", true, "<@UB> offers a rematch")
		board = e.click("UA", board, "Accept")
		wantPosted(t, board, "", true, "Rematch!", "<@UB> is red")
		if len(buttons(board)) != 8 {
			t.Fatalf("rematch buttons %v, want 7 columns and Offer draw", labels(board))
		}

		lb := e.slash("UC", "leaderboard")
		wantPosted(t, lb, inChannel, false, "🥇", "1-0-0", "0-1-0")
		wantPosted(t, e.slash("UA", "board"), inChannel, false, ":white_circle:")
		wantPosted(t, e.slash("UA", "stats"), ephemeral, false, "<@UA>")
	})
}

func TestCommands(t *testing.T) {
	tests := []struct {
		name, user, text string
		responseType     string
		fragments        []string
		kind, outcome    string
	}{
		{"help", "UA", "help", ephemeral, []string{"/connect4 @someone"}, "help", bot.OutcomeOK.String()},
		{"empty text is help", "UA", "", ephemeral, []string{"/connect4 @someone"}, "help", bot.OutcomeOK.String()},
		{"unknown text gets help", "UA", "dance please", ephemeral, []string{"didn't understand", "/connect4 leaderboard"}, kindUnknown, bot.OutcomeRefused.String()},
		{"variant", "UA", "challenge <@UB> 8x9 connect 5 first-to 3", inChannel, []string{"board of 8 columns × 9 rows, connect 5, first to 3"}, "challenge", bot.OutcomeOK.String()},
		{"bad variant", "UA", "<@UB> 99x2", ephemeral, []string{"not allowed"}, "challenge", bot.OutcomeRefused.String()},
		{"variant parse error", "UA", "<@UB> connect", ephemeral, []string{"needs a number"}, kindUnknown, bot.OutcomeRefused.String()},
		{"self", "UA", "<@UA>", ephemeral, []string{"can't challenge yourself"}, "challenge", bot.OutcomeRefused.String()},
		{"a bot user", "UA", "<@" + robotID + ">", ephemeral, []string{"is a bot"}, "challenge", bot.OutcomeRefused.String()},
		{"slackbot", "UA", "<@USLACKBOT|slackbot>", ephemeral, []string{"is a bot"}, "challenge", bot.OutcomeRefused.String()},
		{"this bot starts an AI game", "UA", "<@" + botUserID + ">", inChannel, []string{"takes on the AI", ":white_circle:"}, "challenge", bot.OutcomeOK.String()},
		{"ai level", "UA", "ai hard", inChannel, []string{"takes on the AI (hard)"}, "ai", bot.OutcomeOK.String()},
		{"bad ai level", "UA", "ai godlike", ephemeral, []string{"no AI level"}, "ai", bot.OutcomeRefused.String()},
		{"resign without a game", "UA", "resign", ephemeral, []string{"no game"}, "resign", bot.OutcomeRefused.String()},
		{"empty leaderboard", "UA", "leaderboard", inChannel, []string{"No games"}, "leaderboard", bot.OutcomeOK.String()},
		{"stats of someone", "UA", "stats <@UB>", ephemeral, []string{"<@UB>"}, "stats", bot.OutcomeOK.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
			m := e.slash(tt.user, tt.text)
			wantPosted(t, m, tt.responseType, false, tt.fragments...)
			if obs := e.observations(); !slices.Equal(obs, []observation{{tt.kind, tt.outcome}}) {
				t.Errorf("observed %v, want [{%s %s}]", obs, tt.kind, tt.outcome)
			}
			logs := e.logs.String()
			for _, f := range []string{"level=DEBUG", "platform=slack", "channel=" + testChan, "kind=" + tt.kind, "outcome=" + tt.outcome, "duration="} {
				if !strings.Contains(logs, f) {
					t.Errorf("request log lacks %s:\n%s", f, logs)
				}
			}
			if strings.Contains(tt.text, " ") && strings.Contains(logs, tt.text) { // one-word texts are kind names
				t.Errorf("the command text %q was logged:\n%s", tt.text, logs)
			}
		})
	}
}

// TestAIGameThroughClicks checks that the AI answers in the same message
// update as the player's move.
func TestAIGameThroughClicks(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	m := e.slash("UA", "ai easy")
	m = e.click("UA", m, "4")
	wantPosted(t, m, "", true, "<@UA> dropped a disc in column 4")
	// One yellow disc in the players line, one on the board.
	if strings.Count(sectionText(m), ":large_yellow_circle:") != 2 {
		t.Fatalf("the AI did not answer in the same update:\n%s", sectionText(m))
	}
}

// TestResponseURLFailure checks that a failing response_url is logged and
// observed as an error, and leaves the adapter serving.
func TestResponseURLFailure(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	ch := e.slash("UA", "<@UB>")
	e.mu.Lock()
	e.hookErr = http.StatusNotFound
	e.mu.Unlock()
	e.click("UB", ch, "Accept")
	obs := e.observations()
	if last := obs[len(obs)-1]; last != (observation{"accept", bot.OutcomeError.String()}) {
		t.Fatalf("last observation %v, want accept/error", last)
	}
	if !strings.Contains(e.logs.String(), "response_url post failed") {
		t.Fatalf("no log line for the failed post:\n%s", e.logs)
	}
	if strings.Contains(e.logs.String(), e.hooks.URL) {
		t.Fatalf("the response_url was logged:\n%s", e.logs)
	}
}
