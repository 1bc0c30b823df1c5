package discord

import (
	"errors"
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/match"
)

// Where an interaction comes from decides its channel's key and what the
// app may do there. An app installed to a user can be used in any DM or
// group DM (context 2) and in servers that have not installed it
// (context 0 without a server install in authorizing_integration_owners);
// there it is a guest: no bot user is in the channel, so it can only
// answer interactions (edit the message clicked, send follow-ups), never
// post or edit on its own. Guest channels have keys of their own
// (guestDM, or guestPrefix and the server's id), which is how the schedule's
// worker knows to leave their timers to the next interaction (Reaches).

// Interaction contexts (Discord's InteractionContextType).
const (
	contextGuild   = 0 // a server's channel
	contextBotDM   = 1 // the DM with the app's bot user
	contextPrivate = 2 // any other DM or group DM
)

// Installation types, as keys of authorizing_integration_owners.
const ownerGuild = "0"

// Workspaces of guest channels' keys.
const (
	// guestDM is the workspace of a DM or group DM (context 2): their
	// channel ids are unique across Discord.
	guestDM = "gdm"
	// guestPrefix and a server's id make the workspace of a channel of a
	// server where only a user installed the app.
	guestPrefix = "guest-"
)

// errUnknownContext: an interaction context this version does not know.
var errUnknownContext = errors.New("discord: unknown interaction context")

// permUseExternalApps is USE_EXTERNAL_APPS (1 << 50): without it, the
// responses of an app a user installed are forced ephemeral in a server
// that has not installed it.
const permUseExternalApps = 1 << 50

// place is where an interaction happened.
type place struct {
	key   match.Key
	guest bool // the app can only answer interactions there
	// forcedEphemeral: Discord shows the app's responses to the sender
	// alone there (the server forbids external apps to them).
	forcedEphemeral bool
}

// placeOf returns where in happened: errMalformed for a server context
// without a server, errUnknownContext for a context this version does not
// know. An interaction without a context (older payloads) is in a server
// when it names one, else in the bot's DM.
func placeOf(in *interaction) (place, error) {
	p := place{key: match.Key{Platform: Platform, Workspace: in.GuildID, Channel: in.ChannelID}}
	ctx := contextBotDM
	switch {
	case in.Context != nil:
		ctx = *in.Context
	case in.GuildID != "":
		ctx = contextGuild
	}
	switch ctx {
	case contextGuild:
		if in.GuildID == "" {
			return place{}, errMalformed
		}
		if in.Owners != nil && in.Owners[ownerGuild] == "" {
			p.guest = true
			p.key.Workspace = guestPrefix + in.GuildID
			p.forcedEphemeral = in.Member != nil && !mayUseExternalApps(in.Member.Permissions)
		}
	case contextBotDM:
		p.key.Workspace = dmWorkspace
	case contextPrivate:
		p.guest = true
		p.key.Workspace = guestDM
	default:
		return place{}, errUnknownContext
	}
	return p, nil
}

// mayUseExternalApps reports whether perms, a member's permissions in
// decimal, allow the public responses of apps they installed: Administrator
// or Use External Apps. Permissions Discord did not send count as allowed.
func mayUseExternalApps(perms string) bool {
	if perms == "" {
		return true
	}
	p, err := strconv.ParseUint(perms, 10, 64)
	return err == nil && p&(permAdministrator|permUseExternalApps) != 0
}

// Guest reports whether k is a channel where the app is a guest (see
// place): a DM or group DM, or a server that has not installed it.
func Guest(k match.Key) bool {
	return k.Platform == Platform && (k.Workspace == guestDM || strings.HasPrefix(k.Workspace, guestPrefix))
}

// Reaches implements bot.Reacher: the adapter can change messages on its
// own everywhere but in guest channels, whose timed events wait for the
// next interaction.
func (a *Adapter) Reaches(k match.Key) bool { return !Guest(k) }
