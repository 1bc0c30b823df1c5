package main

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
)

const testKey = "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=" // 32 bytes

func TestLoadConfigSlackInstall(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want []string // variables with a problem, none for a valid configuration
	}{
		{"valid", []string{"SLACK_CLIENT_ID", "1.2", "SLACK_CLIENT_SECRET", "s", "CONNECT4_SECRET_KEY", testKey, "SLACK_SIGNING_SECRET", "x"}, nil},
		{"key rotation", []string{"SLACK_CLIENT_ID", "1.2", "SLACK_CLIENT_SECRET", "s",
			"CONNECT4_SECRET_KEY", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=," + testKey, "SLACK_SIGNING_SECRET", "x"}, nil},
		{"secret without id", []string{"SLACK_CLIENT_SECRET", "s"}, []string{"SLACK_CLIENT_ID"}},
		{"id alone", []string{"SLACK_CLIENT_ID", "1.2"}, []string{"SLACK_CLIENT_SECRET", "CONNECT4_SECRET_KEY", "SLACK_SIGNING_SECRET"}},
		{"short key, with a bot token", []string{"SLACK_CLIENT_ID", "1.2", "SLACK_CLIENT_SECRET", "s", "CONNECT4_SECRET_KEY", "c2hvcnQ=",
			"SLACK_SIGNING_SECRET", "x", "SLACK_BOT_TOKEN", "xoxb-1"}, []string{"CONNECT4_SECRET_KEY", "SLACK_CLIENT_ID"}},
	}
	for _, tt := range tests {
		c, err := loadConfig(env(tt.env...), forServe)
		if tt.want == nil {
			if err != nil || c.SlackInstall.ClientID != "1.2" {
				t.Errorf("%s: loadConfig = %+v, %v", tt.name, c.SlackInstall.ClientID, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: loadConfig accepted it, want problems with %q", tt.name, tt.want)
			continue
		}
		for _, v := range tt.want {
			if !strings.Contains(err.Error(), v+":") {
				t.Errorf("%s: %v, want a problem with %s", tt.name, err, v)
			}
		}
		if strings.Contains(err.Error(), "c2hvcnQ") || strings.Contains(err.Error(), testKey) {
			t.Errorf("%s: the error shows the key: %v", tt.name, err)
		}
	}
}

func TestServeHelpListsSlackInstall(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"serve", "--help"}, env(), strings.NewReader(""), &out, &out); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"SLACK_CLIENT_ID", "SLACK_CLIENT_SECRET", "CONNECT4_SECRET_KEY"} {
		if !strings.Contains(out.String(), v) {
			t.Errorf("connect4 serve --help does not list %s:\n%s", v, out.String())
		}
	}
}

// TestServeSlackInstall: serve with SLACK_CLIENT_ID mounts the install,
// its callback and the events.
func TestServeSlackInstall(t *testing.T) {
	addr := freeAddr(t)
	base, stop := startServe(t, env("CONNECT4_ADDR", addr, "SLACK_SIGNING_SECRET", "shh", "SLACK_CLIENT_ID", "1.2",
		"SLACK_CLIENT_SECRET", "s", "CONNECT4_SECRET_KEY", testKey, "CONNECT4_PUBLIC_URL", "https://c4.example.com"))
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(base + "/slack/install")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusFound || !strings.Contains(loc, "client_id=1.2") ||
		!strings.Contains(loc, "redirect_uri=https%3A%2F%2Fc4.example.com%2Fslack%2Foauth%2Fcallback") {
		t.Errorf("GET /slack/install = %d to %q", resp.StatusCode, loc)
	}
	resp, err = http.Post(base+"/slack/events", "application/json", strings.NewReader(`{"type":"url_verification","challenge":"c"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned POST /slack/events = %d, want 401", resp.StatusCode)
	}
	if err := stop(); err != nil {
		t.Errorf("serve: %v", err)
	}
}
