package slack

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// testNonce is the nonce parsePayload gives its clicks.
const testNonce = "0123456789abcdef0123456789abcdef"

// TestRequestNonce checks that a signed request's nonce is the hex of the
// first 16 bytes of sha256(timestamp:signature), the same for a replay of
// the request and different for another request.
func TestRequestNonce(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	signed := func(body []byte, ts string) *http.Request {
		r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/slack/commands", strings.NewReader(string(body)))
		r.Header.Set(headerTimestamp, ts)
		r.Header.Set(headerSignature, sign(testSecret, ts, body))
		return r
	}
	nonceOf := func(r *http.Request) string {
		t.Helper()
		n, ok := e.a.verified(httptest.NewRecorder(), r, newReport("http", "command"))
		if !ok {
			t.Fatal("a signed request was refused")
		}
		return n
	}
	now := strconv.FormatInt(time.Now().Unix(), 10)
	body := commandBody("UA", "resign")
	first := nonceOf(signed(body, now))
	sum := sha256.Sum256([]byte(now + ":" + sign(testSecret, now, body)))
	if want := hex.EncodeToString(sum[:16]); first != want {
		t.Fatalf("nonce %q, want %q", first, want)
	}
	if again := nonceOf(signed(body, now)); again != first {
		t.Fatalf("the replayed request has nonce %q, want %q", again, first)
	}
	earlier := strconv.FormatInt(time.Now().Add(-time.Minute).Unix(), 10)
	if other := nonceOf(signed(body, earlier)); other == first {
		t.Fatalf("the same body signed at another time has the same nonce %q", other)
	}
	if other := nonceOf(signed(commandBody("UA", "board"), now)); other == first {
		t.Fatalf("another body has the same nonce %q", other)
	}

	// The nonce reaches the commands.
	cmd, err := slashCommand(slackapi.SlashCommand{TeamID: testTeam, ChannelID: testChan, UserID: "UA"}, first)
	if err != nil || cmd.Nonce != first {
		t.Fatalf("slashCommand: Nonce %q, %v; want %q", cmd.Nonce, err, first)
	}
	c, err := parsePayload(validClick)
	if err != nil || c.cmd.Nonce != testNonce {
		t.Fatalf("parseClick: Nonce %q, %v; want %q", c.cmd.Nonce, err, testNonce)
	}
}

// TestEnvelopeNonce checks the nonce of Socket Mode envelopes.
func TestEnvelopeNonce(t *testing.T) {
	hash := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return hex.EncodeToString(sum[:16])
	}
	long := strings.Repeat("a", 129)
	for _, tt := range []struct{ in, want string }{
		{"dbdd0ef3-1543-4f94-bfb4-133d0e6c1545", "dbdd0ef3-1543-4f94-bfb4-133d0e6c1545"},
		{"env_1", "env_1"},
		{strings.Repeat("a", 128), strings.Repeat("a", 128)},
		{long, hash(long)},
		{"a b", hash("a b")},
		{"a/b", hash("a/b")},
		{"é", hash("é")},
	} {
		if got := envelopeNonce(tt.in); got != tt.want {
			t.Errorf("envelopeNonce(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
