package discord

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// registerFake is a local Discord that records the command registrations
// it receives and answers them with status.
type registerFake struct {
	srv    *httptest.Server
	mu     sync.Mutex
	paths  []string
	auth   []string
	bodies [][]byte
	status int
	body   string
}

func newRegisterFake(t *testing.T, status int, body string) *registerFake {
	f := &registerFake{status: status, body: body}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.paths = append(f.paths, r.Method+" "+r.URL.Path)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		f.bodies = append(f.bodies, b)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		io.WriteString(w, f.body)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func TestRegisterCommandsPaths(t *testing.T) {
	f := newRegisterFake(t, http.StatusOK, `[]`)
	tests := []struct {
		base, guild, want string
	}{
		{f.srv.URL, "", "PUT /api/v9/applications/111/commands"},
		{f.srv.URL + "/", "222", "PUT /api/v9/applications/111/guilds/222/commands"},
		{f.srv.URL + "/api", "", "PUT /api/v9/applications/111/commands"},
		{f.srv.URL + "/api/", "", "PUT /api/v9/applications/111/commands"},
		{f.srv.URL + "/api/v10", "222", "PUT /api/v9/applications/111/guilds/222/commands"},
		{f.srv.URL + "/proxy/api", "", "PUT /proxy/api/v9/applications/111/commands"},
	}
	for _, tt := range tests {
		if err := RegisterCommands(t.Context(), nil, tt.base, "tok", "111", tt.guild); err != nil {
			t.Fatalf("RegisterCommands(%q): %v", tt.base, err)
		}
		f.mu.Lock()
		got, auth, body := f.paths[len(f.paths)-1], f.auth[len(f.auth)-1], f.bodies[len(f.bodies)-1]
		f.mu.Unlock()
		if got != tt.want {
			t.Errorf("base %q guild %q: %s, want %s", tt.base, tt.guild, got, tt.want)
		}
		if auth != "Bot tok" {
			t.Errorf("Authorization %q, want Bot tok", auth)
		}
		var cmds []struct {
			Name    string `json:"name"`
			Options []struct {
				Name string `json:"name"`
			} `json:"options"`
		}
		if err := json.Unmarshal(body, &cmds); err != nil || len(cmds) != 1 || cmds[0].Name != "connect4" || len(cmds[0].Options) != len(Commands()[0].Options) {
			t.Errorf("body %s: want Commands() (%v)", body, err)
		}
	}
}

func TestRegisterCommandsErrors(t *testing.T) {
	f := newRegisterFake(t, http.StatusUnauthorized, `{"message": "401: Unauthorized", "code": 0}`)
	err := RegisterCommands(t.Context(), nil, f.srv.URL, "bad", "111", "")
	var re *RegisterError
	if !errors.As(err, &re) || re.StatusCode != 401 || re.Message != "401: Unauthorized" {
		t.Errorf("refused token: err = %v, want a *RegisterError 401", err)
	}

	err = RegisterCommands(t.Context(), nil, "ftp://x", "", "", "a/b")
	for _, want := range []string{"DISCORD_BOT_TOKEN", "DISCORD_APPLICATION_ID is not set", "DISCORD_GUILD_ID", "DISCORD_API_URL"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad arguments: err = %v, want it to name %s", err, want)
		}
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := RegisterCommands(ctx, nil, f.srv.URL, "tok", "111", ""); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
}
