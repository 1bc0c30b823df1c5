package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// defaultAPIURL is Discord's REST API without its /api/v9 path.
const defaultAPIURL = "https://discord.com"

// RegisterError is a refusal of RegisterCommands or RegisterEmoji by Discord: the HTTP
// status and, when Discord sent one, its JSON error code and message (a
// 401 is a wrong DISCORD_BOT_TOKEN, a 403 or 404 a wrong application or
// guild id).
type RegisterError struct {
	StatusCode int
	Code       int    // Discord's JSON error code, or 0
	Message    string // Discord's message, or the status text
}

// Error returns "discord: register: HTTP <status>: <message>".
func (e *RegisterError) Error() string {
	return fmt.Sprintf("discord: register: HTTP %d: %s", e.StatusCode, e.Message)
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
	c, err := newRegistrar(client, apiURL, token, appID, guildID)
	if err != nil {
		return err
	}
	path := "/applications/" + appID + "/commands"
	if guildID != "" {
		path = "/applications/" + appID + "/guilds/" + guildID + "/commands"
	}
	if err := c.call(ctx, http.MethodPut, path, Commands(), nil); err != nil {
		var re *RegisterError
		if errors.As(err, &re) {
			return re
		}
		return fmt.Errorf("discord: register commands: %w", err)
	}
	return nil
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
