package slack

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot"
)

const validClick = `{"type":"block_actions","team":{"id":"T1"},"user":{"id":"UA","name":"ua"},` +
	`"channel":{"id":"C1"},"container":{"type":"message","message_ts":"1.2","channel_id":"C1"},` +
	`"response_url":"https://hooks.slack.com/actions/T1/1/x",` +
	`"actions":[{"action_id":"c4_3","block_id":"c4_buttons_0","value":"c4:drop:g1:4:3","type":"button"}]}`

// parsePayload parses a form body with payload the way serveInteraction
// does, then checks the click.
func parsePayload(payload string) (click, error) {
	r := httptest.NewRequest("POST", "/slack/interactions", strings.NewReader(url.Values{"payload": {payload}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	ic, err := readClick(r)
	if err != nil {
		return click{}, errBadRequest
	}
	return parseClick(ic, testNonce)
}

func TestParseClick(t *testing.T) {
	c, err := parsePayload(validClick)
	if err != nil {
		t.Fatalf("parseClick(valid) = %v", err)
	}
	want := bot.Request{Kind: bot.KindDrop, GameID: "g1", Move: 4, Column: 3}
	if c.cmd.Request != want || c.cmd.Key.String() != "slack:T1:C1" || c.cmd.User.ID != "UA" ||
		c.cmd.Message.Channel != "C1" || c.cmd.Message.Timestamp != "1.2" {
		t.Fatalf("parseClick(valid) = %+v, want a drop in column 4 by UA on message C1/1.2", c.cmd)
	}
	tests := []struct {
		name, old, new string
		want           error
	}{
		{"channel from channel when no container", `"channel_id":"C1"`, `"channel_id":""`, nil},
		{"foreign action id", `"action_id":"c4_3"`, `"action_id":"other"`, errForeign},
		{"forged value", `c4:drop:g1:4:3`, `c4:drop:g1:4:30`, errForeign},
		{"no team", `"team":{"id":"T1"}`, `"team":{}`, errBadRequest},
		{"team with a colon", `"team":{"id":"T1"}`, `"team":{"id":"T:1"}`, errBadRequest},
		{"no user", `"user":{"id":"UA","name":"ua"}`, `"user":{}`, errBadRequest},
		{"relative response_url", `https://hooks.slack.com/actions/T1/1/x`, `/actions/x`, errBadRequest},
		{"file response_url", `https://hooks.slack.com/actions/T1/1/x`, `file:///etc/passwd`, errBadRequest},
		{"attachment action", `"block_id":"c4_buttons_0",`, ``, errBadRequest},
		{"other type", `block_actions`, `shortcut`, errBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := strings.Replace(validClick, tt.old, tt.new, 1)
			if p == validClick {
				t.Fatalf("replacing %q changed nothing", tt.old)
			}
			_, err := parsePayload(p)
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("parseClick(%s) = %v, want %v", p, err, tt.want)
			}
		})
	}
}

// FuzzInteraction feeds arbitrary payloads to the click parser: it must
// never panic, and whatever it accepts must be a well-formed command.
func FuzzInteraction(f *testing.F) {
	f.Add(validClick)
	f.Add(strings.Replace(validClick, "c4_3", "nope", 1))
	f.Add(strings.Replace(validClick, "c4:drop:g1:4:3", "c4:rematch:g1:9:0", 1))
	f.Add(`{"type":"block_actions","actions":[null]}`)
	f.Add(`{"type":"block_actions","actions":[{"block_id":7}]}`)
	f.Add(`{"type":"dialog_submission","state":"x"}`)
	f.Add(`[]`)
	f.Add(``)
	f.Fuzz(func(t *testing.T, payload string) {
		c, err := parsePayload(payload)
		if err != nil && !errors.Is(err, errBadRequest) && !errors.Is(err, errForeign) {
			t.Fatalf("parseClick(%q) = %v, want nil, errBadRequest or errForeign", payload, err)
		}
		if errors.Is(err, errBadRequest) {
			return
		}
		// Accepted or foreign: it can be answered in the right channel.
		if c.cmd.Key.Validate() != nil || c.cmd.User.ID == "" || !webURL(c.responseURL) {
			t.Fatalf("parseClick(%q) = %+v, %v: unusable click", payload, c, err)
		}
		if err == nil {
			if _, perr := bot.ParseAction(bot.Action{Kind: c.cmd.Kind, GameID: c.cmd.GameID, Move: c.cmd.Move, Column: c.cmd.Column}.String()); perr != nil {
				t.Fatalf("parseClick(%q) accepted %+v, which does not round-trip: %v", payload, c.cmd.Request, perr)
			}
		}
	})
}
