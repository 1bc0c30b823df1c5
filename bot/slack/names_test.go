package slack

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestSuggestsChannelNames: a typed command not understood is suggested
// with the name of someone who typed /connect4 in the channel (Slack's
// slash command says who; no Web API call), and with no one else's.
func TestSuggestsChannelNames(t *testing.T) {
	tests := []struct {
		name   string
		before []string // users who typed help in the channel first
		text   string
		want   string
		not    string
	}{
		{"a player who typed here", []string{"UBOB"}, "challenge uobb", "@ubob", "@uobb"},
		{"nobody typed here", nil, "challenge uobb", "", "@ubob"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
			for _, u := range tt.before {
				e.slash(u, "help")
			}
			got := sectionText(e.slash("UA", tt.text))
			if tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("reply %q lacks %q", got, tt.want)
			}
			if tt.not != "" && strings.Contains(got, tt.not) {
				t.Errorf("reply %q has %q", got, tt.not)
			}
		})
	}
}
