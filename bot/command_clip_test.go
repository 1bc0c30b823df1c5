package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestLongNamesClipped: a name longer than a record keeps (a Slack real
// name, a hostile one) is cut at a character boundary, not refused as an
// internal error.
func TestLongNamesClipped(t *testing.T) {
	svc := New(storetest.NewMemory(t, sessions.Options{}), Options{})
	long := strings.Repeat("é", 200) // 400 bytes
	cmd := Command{Key: match.Key{Platform: "slack", Workspace: "T", Channel: "C"}, User: match.Player{ID: "UA", Name: long}}
	cmd.Kind, cmd.Opponent = KindChallenge, match.Player{ID: "UB", Name: long + "x"}
	r := svc.Handle(context.Background(), cmd)
	if r.Problem != ProblemNone || len(r.Buttons) == 0 {
		t.Fatalf("challenge with 400-byte names: %+v", r)
	}
	accept, err := ParseAction(r.Buttons[0].Value)
	if err != nil || accept.Kind != KindAccept {
		t.Fatalf("first button %q: %v", r.Buttons[0].Value, err)
	}
	cmd.User, cmd.Request = cmd.Opponent, accept
	r = svc.Handle(context.Background(), cmd)
	if r.Problem != ProblemNone || r.Game == nil {
		t.Fatalf("accept: %+v", r)
	}
	for _, p := range []match.Player{r.Red, r.Yellow} {
		if len(p.Name) > match.MaxNameLen || !strings.HasPrefix(long, p.Name) || len(p.Name) < match.MaxNameLen-1 {
			t.Errorf("name kept as %d bytes", len(p.Name))
		}
	}
}
