package main

import (
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/lang"
)

// TestPlayTimed checks that `connect4 play` runs the schedule: with short
// CONNECT4_CHALLENGE_TTL, CONNECT4_REMIND_AFTER and CONNECT4_TURN_TIMEOUT a
// challenge left unanswered is edited to say it expired, the player to
// move gets a reminder, and the waiting player is offered a Claim button,
// which can be typed (the "the terminal has no clock").
func TestPlayTimed(t *testing.T) {
	t.Parallel() // it waits for the schedule: a challenge expiring, a reminder, a Claim
	p := startPlay(t, env("CONNECT4_CHALLENGE_TTL", "1s", "CONNECT4_REMIND_AFTER", "1s",
		"CONNECT4_TURN_TIMEOUT", "2s", "CONNECT4_SCHEDULE_POLL", "50ms"))
	p.command(t, "/connect4 @bob", "[Accept]", 2*time.Second)
	expired := lang.English.Say("button.accept", nil) // gone once expired
	waitOut(t, p, "expired", 6*time.Second)
	if last := lastBlock(p.out.String()); strings.Contains(last, "["+expired+"]") {
		t.Errorf("the expired challenge still shows its buttons:\n%s", last)
	}
	p.command(t, "/connect4 @bob", "[Accept]", 2*time.Second)
	p.command(t, "as bob", "(you are now bob)", 2*time.Second)
	p.command(t, "Accept", "it's your turn (move 1)", 2*time.Second)
	waitOut(t, p, "[Claim", 8*time.Second)
	p.command(t, "Claim", "wins", 2*time.Second)
	t.Logf("the terminal showed:\n%s", p.out.String())
}

// waitOut waits for want in p's output, at most within.
func waitOut(t *testing.T, p *playSession, want string, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); !strings.Contains(p.out.String(), want); {
		if time.Now().After(deadline) {
			t.Fatalf("output lacks %q after %v:\n%s\nstderr:\n%s", want, within, p.out.String(), p.err.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// lastBlock is the output from the last message's separator on.
func lastBlock(s string) string {
	if i := strings.LastIndex(s, "── "); i >= 0 {
		return s[i:]
	}
	return s
}
