package discord

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	discordgo "github.com/bwmarrin/discordgo"
)

// discordHost is the host of every REST URL discordgo builds.
const discordHost = "discord.com"

// rewriteTransport sends the requests discordgo makes to https://discord.com
// to another base URL instead (a local fake in tests). Other requests pass
// through unchanged.
type rewriteTransport struct {
	base *url.URL
	next http.RoundTripper
}

func (t *rewriteTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Host != discordHost {
		return t.next.RoundTrip(r)
	}
	// A shallow copy with its own URL, as http.StripPrefix makes: the
	// headers are only read, so they need no deep copy.
	r2 := new(http.Request)
	*r2 = *r
	u := *r.URL
	u.Scheme, u.Host = t.base.Scheme, t.base.Host
	if prefix := strings.TrimSuffix(t.base.Path, "/"); prefix != "" {
		u.Path = prefix + u.Path
		u.RawPath = ""
	}
	r2.URL, r2.Host = &u, ""
	return t.next.RoundTrip(r2)
}

// CloseIdleConnections closes the idle connections of the transport it
// wraps, when that one can.
func (t *rewriteTransport) CloseIdleConnections() {
	if c, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// parseAPIURL checks DISCORD_API_URL: empty, or an absolute http(s) URL.
func parseAPIURL(s string) (*url.URL, error) {
	if s == "" {
		return nil, nil
	}
	u, err := url.Parse(apiBase(s))
	if err != nil {
		return nil, fmt.Errorf("discord: DISCORD_API_URL %q: %w", s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("discord: DISCORD_API_URL %q: want an absolute http or https URL", s)
	}
	return u, nil
}

// Connections of the REST client the adapter makes when Config.HTTPClient
// is nil.
const (
	// restIdleConns is how many idle connections to Discord the client
	// keeps: every move shown with a picture is a REST call, and with
	// http.DefaultTransport's 2, uploads in flight beyond two each
	// opened (and then closed) a connection of their own, a TLS
	// handshake each against Discord.
	restIdleConns = 32
	// restWriteBuffer is the size of a connection's write buffer: a
	// request's headers and a picture's multipart body (about 10 KB)
	// leave in one write, rather than the headers alone first and the
	// body after them with the default 4 KB.
	restWriteBuffer = 32 << 10
)

// restClient returns the HTTP client for discordgo's REST calls: base (or a
// client with discordgo's default 20 s timeout, keeping restIdleConns
// connections), sending discord.com requests to apiURL when it is set.
func restClient(base *http.Client, apiURL *url.URL) *http.Client {
	c := &http.Client{Timeout: restTimeout, Transport: restTransport()}
	if base != nil {
		c = new(http.Client)
		*c = *base
	}
	if apiURL == nil {
		return c
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = &rewriteTransport{base: apiURL, next: next}
	return c
}

// restTransport returns http.DefaultTransport's settings with
// restIdleConns idle connections per host and a write buffer of
// restWriteBuffer.
func restTransport() http.RoundTripper {
	d, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t := d.Clone()
	t.MaxIdleConnsPerHost = restIdleConns
	t.WriteBufferSize = restWriteBuffer
	return t
}

// newSession returns a discordgo session for REST calls (and, once opened,
// the Gateway) with token ("" for webhook calls only; a "Bot " prefix is
// added unless present) and client.
func newSession(token string, client *http.Client) (*discordgo.Session, error) {
	if token != "" {
		token = "Bot " + strings.TrimPrefix(token, "Bot ")
	}
	s, err := discordgo.New(token)
	if err != nil {
		return nil, fmt.Errorf("discord: new session: %w", err)
	}
	s.Client = client
	s.Identify.Intents = discordgo.IntentsGuilds
	return s, nil
}

// apiBase returns a DISCORD_API_URL without a trailing /api or
// /api/v<N> (and slash): the adapter adds Discord's /api/v9 path itself,
// so "https://discord.com/api" and "https://discord.com" mean the same.
func apiBase(s string) string {
	s = strings.TrimRight(s, "/")
	if i := strings.LastIndex(s, "/api/v"); i >= 0 && strings.Trim(s[i+len("/api/v"):], "0123456789") == "" && i+len("/api/v") < len(s) {
		s = s[:i]
	}
	return strings.TrimSuffix(s, "/api")
}

// CheckPublicKey checks DISCORD_PUBLIC_KEY: empty, or the 64 hex
// characters of an Ed25519 public key, as the Developer Portal shows it.
// It returns what is wrong, without repeating the value, or "".
func CheckPublicKey(s string) string {
	const want = "must be 64 hex characters (the application's Public Key in the Developer Portal)"
	switch _, err := hex.DecodeString(s); {
	case s == "":
		return ""
	case len(s) != 2*ed25519.PublicKeySize:
		return fmt.Sprintf("%s, not %d", want, len(s))
	case err != nil:
		return want + "; it holds a character that is not 0-9 or a-f"
	}
	return ""
}

// restAPI is the part of discordgo's Session the adapter calls over REST:
// interaction responses and follow-ups, channel messages, command
// registration, and raw requests for the shapes discordgo has no type for
// (Components V2, multipart uploads).
type restAPI interface {
	InteractionRespond(in *discordgo.Interaction, resp *discordgo.InteractionResponse, options ...discordgo.RequestOption) error
	InteractionResponse(in *discordgo.Interaction, options ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseEdit(in *discordgo.Interaction, edit *discordgo.WebhookEdit, options ...discordgo.RequestOption) (*discordgo.Message, error)
	InteractionResponseDelete(in *discordgo.Interaction, options ...discordgo.RequestOption) error
	FollowupMessageCreate(in *discordgo.Interaction, wait bool, data *discordgo.WebhookParams, options ...discordgo.RequestOption) (*discordgo.Message, error)
	ChannelMessageSendComplex(channelID string, data *discordgo.MessageSend, options ...discordgo.RequestOption) (*discordgo.Message, error)
	ChannelMessageEditComplex(m *discordgo.MessageEdit, options ...discordgo.RequestOption) (*discordgo.Message, error)
	ApplicationCommandBulkOverwrite(appID, guildID string, commands []*discordgo.ApplicationCommand, options ...discordgo.RequestOption) ([]*discordgo.ApplicationCommand, error)
	RequestWithBucketID(method, urlStr string, data any, bucketID string, options ...discordgo.RequestOption) ([]byte, error)
	RequestRaw(method, urlStr, contentType string, b []byte, bucketID string, sequence int, options ...discordgo.RequestOption) ([]byte, error)
}

var _ restAPI = (*discordgo.Session)(nil)
