package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/match"
)

// recordingNotifier keeps the edits it is asked to make.
type recordingNotifier struct {
	edits []match.MessageRef
	texts []string
}

func (n *recordingNotifier) Edit(_ context.Context, _ match.Key, ref match.MessageRef, r Reply) error {
	n.edits, n.texts = append(n.edits, ref), append(n.texts, r.Text)
	return nil
}

func (n *recordingNotifier) Post(context.Context, match.Key, match.MessageRef, Reply) error {
	return nil
}

// TestTypedAnswerEditsChallenge: a typed cancel or decline replaces the
// challenge's own message (the issue: its Accept stayed live, and a click
// on it then said the board had moved on); a click needs no edit, it
// updates the message it was on.
func TestTypedAnswerEditsChallenge(t *testing.T) {
	tests := []struct {
		name, user, text, want string
		edits                  int
	}{
		{"typed cancel", "UA", "cancel", "withdrew", 1},
		{"typed decline", "UB", "decline", "declined", 1},
		{"clicked Cancel", "UA", "", "withdrew", 0},
		{"clicked Decline", "UB", "", "declined", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, h *harness) {
				c := h.say("UA", "<@UB>")
				id := h.record(c).ID
				ref := match.MessageRef{Channel: "C1", Timestamp: "9.9"}
				if err := h.svc.Attach(t.Context(), h.key, id, ref); err != nil {
					t.Fatal(err)
				}
				var r Reply
				if tt.text != "" {
					r = h.say(tt.user, tt.text)
				} else {
					label := map[string]string{"UA": "Cancel", "UB": "Decline"}[tt.user]
					r = h.click(tt.user, c, label)
				}
				if r.Problem != ProblemNone || !strings.Contains(r.Text, tt.want) {
					t.Fatalf("reply %v %q, want %q", r.Problem, r.Text, tt.want)
				}
				if got := len(r.Edits); got != tt.edits {
					t.Fatalf("%d edits, want %d", got, tt.edits)
				}
				if tt.edits == 0 {
					return
				}
				e := r.Edits[0]
				if e.Message != ref || e.Reply.GameID != id || len(e.Reply.Buttons) != 0 || !strings.Contains(e.Reply.Text, tt.want) {
					t.Errorf("edit %+v, want message %v of game %s without buttons saying %q", e, ref, id, tt.want)
				}
				var n recordingNotifier
				ApplyEdits(t.Context(), &n, h.key, r, h.svc.log)
				if len(n.edits) != 1 || n.edits[0] != ref {
					t.Errorf("ApplyEdits edited %v, want %v", n.edits, ref)
				}
			})
		})
	}
}
