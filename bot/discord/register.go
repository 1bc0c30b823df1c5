package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// defaultAPIURL is Discord's REST API without its /api/v9 path.
const defaultAPIURL = "https://discord.com"

// RegisterError is a refusal of RegisterCommands by Discord: the HTTP
// status and, when Discord sent one, its JSON error code and message (a
// 401 is a wrong DISCORD_BOT_TOKEN, a 403 or 404 a wrong application or
// guild id).
type RegisterError struct {
	StatusCode int
	Code       int    // Discord's JSON error code, or 0
	Message    string // Discord's message, or the status text
}

// Error returns "discord: register commands: HTTP <status>: <message>".
func (e *RegisterError) Error() string {
	return fmt.Sprintf("discord: register commands: HTTP %d: %s", e.StatusCode, e.Message)
}

// RegisterCommands replaces the application appID's commands with
// Commands(), through Discord's REST API with the bot token token (without
// "Bot "): in guild guildID when it is set (they appear there at once),
// else globally (they may take up to an hour to appear). It needs no
// Adapter and no bot.Service. apiURL "" means https://discord.com; a base
// given with or without its /api (or /api/v<N>) path is the same. A nil
// client means one with a 20 s timeout. It returns an error naming each
// missing argument, a *RegisterError when Discord refuses, or the
// transport's error.
func RegisterCommands(ctx context.Context, client *http.Client, apiURL, token, appID, guildID string) error {
	var errs []error
	if token == "" {
		errs = append(errs, errors.New("discord: DISCORD_BOT_TOKEN is not set"))
	}
	if appID == "" {
		errs = append(errs, errors.New("discord: DISCORD_APPLICATION_ID is not set"))
	}
	for _, id := range []struct{ name, val string }{{"DISCORD_APPLICATION_ID", appID}, {"DISCORD_GUILD_ID", guildID}} {
		if strings.ContainsAny(id.val, "/?#% ") {
			errs = append(errs, fmt.Errorf("discord: %s %q is not a Discord id (digits)", id.name, id.val))
		}
	}
	if apiURL == "" {
		apiURL = defaultAPIURL
	}
	base, err := url.Parse(apiURL)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		errs = append(errs, fmt.Errorf("discord: DISCORD_API_URL %q: want an absolute http or https URL", apiURL))
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if client == nil {
		client = &http.Client{Timeout: restTimeout}
	}
	path := "/applications/" + appID + "/commands"
	if guildID != "" {
		path = "/applications/" + appID + "/guilds/" + guildID + "/commands"
	}
	body, err := json.Marshal(Commands())
	if err != nil {
		return fmt.Errorf("discord: encode commands: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, apiRoot(base)+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("discord: register commands: %w", err)
	}
	req.Header.Set("Authorization", "Bot "+strings.TrimPrefix(token, "Bot "))
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("discord: register commands: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 2 {
		return nil
	}
	re := &RegisterError{StatusCode: resp.StatusCode, Message: http.StatusText(resp.StatusCode)}
	var msg struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &msg) == nil && msg.Message != "" {
		re.Code, re.Message = msg.Code, msg.Message
	}
	return re
}

// apiRoot returns the versioned REST root under base ("https://discord.com"
// gives "https://discord.com/api/v9"), whether base ends in /api, /api/v<N>
// or neither.
func apiRoot(base *url.URL) string {
	u := *base
	p := strings.TrimRight(u.Path, "/")
	if i := strings.LastIndex(p, "/api/v"); i >= 0 && i+len("/api/v") < len(p) && strings.Trim(p[i+len("/api/v"):], "0123456789") == "" {
		p = p[:i]
	}
	u.Path = strings.TrimSuffix(p, "/api") + "/api/v" + apiVersion
	u.RawPath, u.RawQuery, u.Fragment = "", "", ""
	return u.String()
}

// apiVersion is the REST API version of discordgo v0.29.0, which the
// adapter's other calls use.
const apiVersion = "9"
