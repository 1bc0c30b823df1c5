package discord

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
)

func TestSignatures(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	_, otherKey, _ := ed25519.GenerateKey(rand.Reader)
	ping := []byte(`{"id":"1","application_id":"` + appID + `","type":1,"token":"tok","version":1}`)
	now := time.Now().Unix()
	ts := strconv.FormatInt(now, 10)
	good := sign(f.priv, ts, ping)
	without := func(name string) http.Header {
		h := good.Clone()
		h.Del(name)
		return h
	}
	with := func(name, value string) http.Header {
		h := good.Clone()
		h.Set(name, value)
		return h
	}
	for _, tc := range []struct {
		name string
		body []byte
		h    http.Header
		code int
	}{
		{"valid", ping, good, http.StatusOK},
		{"another key", ping, sign(otherKey, ts, ping), http.StatusUnauthorized},
		{"changed body", bytes.Replace(ping, []byte(`"tok"`), []byte(`"tak"`), 1), good, http.StatusUnauthorized},
		{"changed timestamp", ping, with("X-Signature-Timestamp", strconv.FormatInt(now+1, 10)), http.StatusUnauthorized},
		{"no signature", ping, without("X-Signature-Ed25519"), http.StatusUnauthorized},
		{"no timestamp", ping, without("X-Signature-Timestamp"), http.StatusUnauthorized},
		{"no headers", ping, http.Header{}, http.StatusUnauthorized},
		{"bad hex", ping, with("X-Signature-Ed25519", "zz"+good.Get("X-Signature-Ed25519")[2:]), http.StatusUnauthorized},
		{"short signature", ping, with("X-Signature-Ed25519", good.Get("X-Signature-Ed25519")[:64]), http.StatusUnauthorized},
		{"signature of nothing", ping, with("X-Signature-Ed25519", strings.Repeat("0", 128)), http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := f.do(tc.body, tc.h)
			if w.Code != tc.code {
				t.Fatalf("status %d %q, want %d", w.Code, w.Body.String(), tc.code)
			}
			if tc.code == http.StatusOK {
				if got := strings.TrimSpace(w.Body.String()); got != `{"type":1}` {
					t.Errorf("PING answered %s, want {\"type\":1}", got)
				}
				if ct := w.Header().Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type %q, want application/json", ct)
				}
			}
		})
	}
	if got := f.observations(); !slices.Contains(got, "ping/ok") || !slices.Contains(got, "unknown/unauthorized") {
		t.Errorf("observed %v, want ping/ok and unknown/unauthorized", got)
	}
}

func TestBadBodies(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	for _, tc := range []struct {
		name string
		body string
		code int
	}{
		{"not JSON", `{"type":1`, http.StatusBadRequest},
		{"empty", ``, http.StatusBadRequest},
		{"array", `[1,2]`, http.StatusBadRequest},
		{"unknown type", `{"type":99}`, http.StatusBadRequest},
		{"command without data", `{"type":2,"channel_id":"1","user":{"id":"2"}}`, http.StatusBadRequest},
		{"command with string data", `{"type":2,"channel_id":"1","user":{"id":"2"},"data":"x"}`, http.StatusBadRequest},
		{"command without user", `{"type":2,"channel_id":"1","data":{"name":"connect4"}}`, http.StatusBadRequest},
		{"command without channel", `{"type":2,"user":{"id":"2"},"data":{"name":"connect4"}}`, http.StatusBadRequest},
		{"channel with a colon", `{"type":2,"channel_id":"1:2","user":{"id":"2"},"data":{"name":"connect4"}}`, http.StatusBadRequest},
		{"click with number custom_id", `{"type":3,"channel_id":"1","user":{"id":"2"},"data":{"custom_id":7}}`, http.StatusBadRequest},
		{"option of the wrong type", `{"type":2,"channel_id":"1","user":{"id":"2"},"data":{"name":"connect4","options":[{"name":"challenge","type":1,"options":[{"name":"opponent","type":6,"value":12},{"name":"rows","type":4,"value":"x"}]}]}}`, http.StatusOK},
		{"bare command", `{"type":2,"channel_id":"1","user":{"id":"2"},"data":{"name":"connect4"}}`, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			if w := f.do(body, sign(f.priv, ts, body)); w.Code != tc.code {
				t.Fatalf("POST %s = %d %q, want %d", tc.body, w.Code, w.Body.String(), tc.code)
			}
		})
	}
	t.Run("oversized", func(t *testing.T) {
		body := append([]byte(`{"type":1,"x":"`), bytes.Repeat([]byte("a"), MaxBody)...)
		body = append(body, `"}`...)
		if w := f.do(body, sign(f.priv, ts, body)); w.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("POST of %d bytes = %d, want 413", len(body), w.Code)
		}
	})
	t.Run("wrong method", func(t *testing.T) {
		w := httptest.NewRecorder()
		f.mux.ServeHTTP(w, httptest.NewRequest(http.MethodGet, InteractionsPath, nil))
		if w.Code != http.StatusMethodNotAllowed {
			t.Fatalf("GET = %d, want 405", w.Code)
		}
	})
	if got := f.observations(); !slices.Contains(got, "unknown/bad_request") || !slices.Contains(got, "unknown/too_large") {
		t.Errorf("observed %v, want unknown/bad_request and unknown/too_large", got)
	}
}

func TestNewChecksConfig(t *testing.T) {
	svc := bot.New(sessionsMemory(), bot.Options{})
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	for _, tc := range []struct {
		name string
		cfg  Config
		want []string // fragments of the error; none for success
	}{
		{"empty", Config{}, nil},
		{"valid", Config{PublicKey: hex.EncodeToString(pub), APIURL: "http://127.0.0.1:9/prefix"}, nil},
		{"not hex", Config{PublicKey: "xyz"}, []string{"DISCORD_PUBLIC_KEY", "hex"}},
		{"short key", Config{PublicKey: hex.EncodeToString(pub[:31])}, []string{"DISCORD_PUBLIC_KEY", "must be 64 hex characters (the application's Public Key in the Developer Portal), not 62"}},
		{"relative URL", Config{APIURL: "/api"}, []string{"DISCORD_API_URL"}},
		{"bad URL", Config{APIURL: "http://[::1"}, []string{"DISCORD_API_URL"}},
		{"both", Config{PublicKey: "00", APIURL: "ftp://x"}, []string{"DISCORD_PUBLIC_KEY", "DISCORD_API_URL"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := New(svc, tc.cfg, nil)
			if len(tc.want) == 0 {
				if err != nil || a == nil {
					t.Fatalf("New(%+v) = %v, want an adapter", tc.cfg, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("New(%+v) succeeded, want an error naming %v", tc.cfg, tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("New(%+v) = %q, want it to contain %q", tc.cfg, err, w)
				}
			}
		})
	}
}

func TestRegisterWithoutKeyMountsNothing(t *testing.T) {
	a, err := New(bot.New(sessionsMemory(), bot.Options{}), Config{BotToken: "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	a.Register(mux)
	w := httptest.NewRecorder()
	mux.ServeHTTP(w, httptest.NewRequest(http.MethodPost, InteractionsPath, strings.NewReader(`{"type":1}`)))
	if w.Code != http.StatusNotFound {
		t.Fatalf("POST without DISCORD_PUBLIC_KEY = %d, want 404", w.Code)
	}
}

func TestHelpUnknownAndDM(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	want(t, f.slash("UA", "help", nil), typeMessage, flagEphemeral, "/connect4 challenge opponent:@someone")
	want(t, f.slash("UA", "dance", nil), typeMessage, flagEphemeral, "I don't know that command")
	in := f.slashIn("UA", "help", nil)
	in["data"].(map[string]any)["name"] = "chess"
	want(t, f.send(in), typeMessage, flagEphemeral, "I don't know that command")

	// In a DM the invoker is "user", not "member", and the channel is its own
	// workspace.
	dm := f.envelope(2, "UA", "", map[string]any{"name": "connect4", "type": 1,
		"options": []any{map[string]any{"name": "ai", "type": 1}}})
	want(t, f.send(dm), typeMessage, 0, "<@UA> takes on the AI (medium)")
	if f.record(dmWorkspace) == nil {
		t.Fatal("no game stored under the dm workspace")
	}
	if f.record(guildID) != nil {
		t.Fatal("a DM game was stored under the guild")
	}
}

func TestLogsOmitSecrets(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	f.challenge("UA", "UB")
	f.mu.Lock()
	logs := f.logs.String()
	f.mu.Unlock()
	for _, want := range []string{"platform=discord", "channel=" + chanID, "kind=challenge", "outcome=ok", "duration="} {
		if !strings.Contains(logs, want) {
			t.Errorf("log %q lacks %q", logs, want)
		}
	}
	for _, secret := range []string{"tok-1", "challenges"} {
		if strings.Contains(logs, secret) {
			t.Errorf("log %q contains %q", logs, secret)
		}
	}
}
