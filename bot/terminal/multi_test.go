package terminal

import (
	"bytes"
	"strings"
	"testing"
)

// TestScriptedThreePlayerGame plays a game of 3 at the terminal: the
// challenge, the accepts, refusals, a resignation that leaves the game to
// two, and a win, then a rematch that waits for everyone.
func TestScriptedThreePlayerGame(t *testing.T) {
	script := strings.Join([]string{
		"/connect4 @bob @carol 8x6",
		"as bob", "Accept",
		"as carol", "/connect4 resign", // not started: refused
		"Accept",
		"as bob", "1", // not bob's turn
		"as alice", "1", "as bob", "2", "as carol", "3",
		"as bob", "/connect4 resign",
		"as alice", "1", "as carol", "3",
		"as bob", "1", // bob has left
		"as alice", "1", "as carol", "5", "as alice", "1",
		"/connect4 leaderboard",
		"Rematch",
		"as carol", "Accept",
		"as bob", "Accept",
		"quit",
	}, "\n")
	var out, logs bytes.Buffer
	a, err := New(newService(nil, &logs), Config{In: strings.NewReader(script), Out: &out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(t.Context()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	got := out.String()
	for _, want := range []string{
		"@alice challenges @bob and @carol to a game of Connect Four for 3 players on a board of 8 columns × 6 rows",
		"@bob accepted.",
		"Accepted: @bob. @carol, do you accept?",
		"(only carol can see this) The game hasn't started",
		"@carol accepted: everyone is in! @alice is red and goes first, then @bob and @carol.",
		"🔴 @alice vs 🟡 @bob vs 🟢 @carol",
		"1 2 3 4 5 6 7 8\n⚪⚪⚪⚪⚪⚪⚪⚪",
		"(only bob can see this) It's not your turn: wait for @alice",
		"🟢 @carol, it's your turn (move 3)",
		"@bob resigned and leaves the game; their discs stay. @alice, it's your move.",
		"🟡 @bob (left)",
		"(only bob can see this) You've left this game",
		"@alice wins!",
		"🟥",
		"🥇 alice 1-0-0", "bob 0-1-0", "carol 0-1-0",
		"@alice offers a rematch, with @bob to start this time.",
		"@carol is in.",
		"Rematch! @bob is red and goes first this time, then @carol and @alice.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q\n--- output ---\n%s", want, got)
		}
	}
	if logs.Len() != 0 {
		t.Errorf("the bot logged during a normal game:\n%s", logs.String())
	}
}
