package discord

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// FuzzInteraction posts arbitrary signed bodies to the interactions
// endpoint: whatever they hold, the answer is 200 with a response Discord
// knows, or 400, never a 5xx or a panic.
func FuzzInteraction(f *testing.F) {
	for _, seed := range []string{
		`{"type":1}`,
		`{"id":"1","application_id":"9","type":2,"token":"t","guild_id":"8","channel_id":"7","member":{"user":{"id":"UA"}},"data":{"name":"connect4","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":"UB"},{"name":"rows","type":4,"value":8}]}],"resolved":{"users":{"UB":{"id":"UB","bot":true}}}}}`,
		`{"id":"1","type":2,"token":"t","channel_id":"7","user":{"id":"UA"},"data":{"name":"connect4","options":[{"name":"ai","type":1,"options":[{"name":"level","type":3,"value":"hard"}]}]}}`,
		`{"id":"1","type":2,"token":"t","channel_id":"7","user":{"id":"UA"},"data":{"name":"connect4","options":[{"name":"stats","type":1,"options":[{"name":"player","type":6,"value":"UB"}]}]}}`,
		`{"id":"1","type":3,"token":"t","guild_id":"8","channel_id":"7","member":{"user":{"id":"UA"}},"message":{"id":"5"},"data":{"custom_id":"c4:drop:abc:0:3","component_type":2}}`,
		`{"id":"1","type":3,"token":"t","channel_id":"7","user":{"id":"UA"},"data":{"custom_id":"c4:accept:abc:0:0"}}`,
		`{"id":"1","type":2,"token":"t","channel_id":"7","context":2,"authorizing_integration_owners":{"1":"UA"},"entitlements":[],"user":{"id":"UA"},"data":{"name":"connect4","options":[{"name":"board","type":1}]}}`,
		`{"id":"1","type":3,"token":"t","guild_id":"8","channel_id":"7","context":0,"authorizing_integration_owners":{"1":"UA"},"member":{"user":{"id":"UA"},"permissions":"0"},"data":{"custom_id":"c4:drop:abc:0:3"}}`,
		`{"id":"1","type":2,"token":"t","channel_id":"7","context":9,"user":{"id":"UA"},"data":{"name":"connect4"}}`,
		`{"type":4,"data":{"name":"connect4"}}`,
		`{"type":5,"data":{"custom_id":"x","components":[]}}`,
		`{"type":2,"data":null}`,
		`[]`,
		`null`,
		``,
	} {
		f.Add([]byte(seed))
	}
	fx := newFixture(f, sessionsMemory(), 0)
	f.Fuzz(func(t *testing.T, body []byte) {
		fx.t = t // the target runs one input at a time
		w := fx.do(body, sign(fx.priv, strconv.FormatInt(time.Now().Unix(), 10), body))
		switch w.Code {
		case http.StatusOK:
			var r gotResponse
			if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
				t.Fatalf("POST %q answered %q: %v", body, w.Body.String(), err)
			}
			switch r.Type {
			case 1, 4, 5, 6, 7, 8:
			default:
				t.Fatalf("POST %q answered type %d", body, r.Type)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("POST %q = %d %q, want 200 or 400", body, w.Code, w.Body.String())
		}
	})
}
