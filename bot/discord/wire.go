package discord

import (
	"encoding/json"
	"strconv"

	discordgo "github.com/bwmarrin/discordgo"
)

// interaction is what the bot reads of a Discord interaction: its type and
// ids, who sent it from where, and the command's options or the button's
// custom id. Everything else, the clicked message with its components
// above all, is skipped by the decoder rather than built; discordgo's
// types are kept for what the adapter sends.
type interaction struct {
	ID        string                    `json:"id"`
	AppID     string                    `json:"application_id"`
	Type      discordgo.InteractionType `json:"type"`
	Token     string                    `json:"token"`
	GuildID   string                    `json:"guild_id"`
	ChannelID string                    `json:"channel_id"`
	Member    *member                   `json:"member"` // in a guild
	User      *user                     `json:"user"`   // in a DM
	Data      *interactionData          `json:"data"`
	Message   *clickedMessage           `json:"message"` // on a click
	// Locale is the sender's language (Discord's locale, "de", "pt-BR");
	// GuildLocale the server's, in a guild. Both as Discord sends them:
	// command bounds them (see locale).
	Locale      string `json:"locale"`
	GuildLocale string `json:"guild_locale"`
	// Context is where the interaction happened (0 a server, 1 the DM
	// with the app's bot, 2 any other DM or group DM); nil when Discord
	// did not say (older payloads). See placeOf.
	Context *int `json:"context"`
	// Owners is authorizing_integration_owners: for each installation
	// type that authorized the interaction ("0" a server install, "1" a
	// user install), the server's or the user's id.
	Owners map[string]string `json:"authorizing_integration_owners"`
	// Entitlements are read only so that a payload carrying them parses:
	// the bot sells nothing.
	Entitlements []entitlement `json:"entitlements"`
}

// entitlement is what is read of an entitlement: nothing is done with it.
type entitlement struct {
	ID    string `json:"id"`
	SKUID string `json:"sku_id"`
}

// member is the guild member who sent an interaction.
type member struct {
	User *user `json:"user"`
	// Permissions is the member's permission bit set in the channel, in
	// decimal, as Discord sends it.
	Permissions string `json:"permissions"`
}

// user is a Discord user.
type user struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
	Bot        bool   `json:"bot"`
}

// interactionData is the data of an application command (Name, Options,
// Resolved) or of a button click (CustomID).
type interactionData struct {
	Name     string    `json:"name"`
	Options  []*option `json:"options"`
	Resolved *resolved `json:"resolved"`
	CustomID string    `json:"custom_id"`
}

// option is a command option: a subcommand with its options, or a value
// (a string, a user id, or a JSON number as float64).
type option struct {
	Name    string                                 `json:"name"`
	Type    discordgo.ApplicationCommandOptionType `json:"type"`
	Value   any                                    `json:"value"`
	Options []*option                              `json:"options"`
}

// resolved holds the users named by a command's user options.
type resolved struct {
	Users map[string]*user `json:"users"`
}

// clickedMessage is the message a button was clicked on: its id, and its
// flags (a Components V2 message must stay one).
type clickedMessage struct {
	ID    string                 `json:"id"`
	Flags discordgo.MessageFlags `json:"flags"`
}

// parse decodes an interaction from its JSON body. Anything that is not a
// JSON object of an interaction type this bot knows, with data for
// commands and clicks, is an error. A click is read by scanInteraction;
// what it leaves, commands above all, by json.Unmarshal.
func parse(body []byte) (*interaction, error) {
	in, ok := scanInteraction(body)
	if !ok {
		in = new(interaction)
		if err := json.Unmarshal(body, in); err != nil {
			return nil, err
		}
	}
	switch in.Type {
	case discordgo.InteractionPing, discordgo.InteractionApplicationCommandAutocomplete:
		return in, nil
	case discordgo.InteractionApplicationCommand, discordgo.InteractionMessageComponent:
		if in.Data != nil {
			return in, nil
		}
	}
	return nil, errMalformed
}

// ref is the part of in that discordgo's REST calls about it read: id,
// application id and token.
func (in *interaction) ref() *discordgo.Interaction {
	return &discordgo.Interaction{ID: in.ID, AppID: in.AppID, Type: in.Type, Token: in.Token, ChannelID: in.ChannelID}
}

// fromGateway copies what the bot reads from an interaction that discordgo
// decoded off the Gateway.
func fromGateway(g *discordgo.Interaction) *interaction {
	in := &interaction{ID: g.ID, AppID: g.AppID, Type: g.Type, Token: g.Token,
		GuildID: g.GuildID, ChannelID: g.ChannelID, User: fromUser(g.User), Locale: string(g.Locale)}
	if len(g.AuthorizingIntegrationOwners) > 0 {
		// discordgo reads an absent context as 0 (a server): only a
		// payload that names its installations is known to carry one.
		c := int(g.Context)
		in.Context = &c
		in.Owners = make(map[string]string, len(g.AuthorizingIntegrationOwners))
		for k, v := range g.AuthorizingIntegrationOwners {
			in.Owners[strconv.Itoa(int(k))] = v
		}
	}
	if g.GuildLocale != nil {
		in.GuildLocale = string(*g.GuildLocale)
	}
	if g.Entitlements != nil {
		in.Entitlements = make([]entitlement, 0, len(g.Entitlements))
		for _, e := range g.Entitlements {
			if e != nil {
				in.Entitlements = append(in.Entitlements, entitlement{ID: e.ID, SKUID: e.SKUID})
			}
		}
	}
	if g.Member != nil {
		in.Member = &member{User: fromUser(g.Member.User)}
		if g.Member.Permissions != 0 {
			in.Member.Permissions = strconv.FormatInt(g.Member.Permissions, 10)
		}
	}
	if g.Message != nil {
		in.Message = &clickedMessage{ID: g.Message.ID, Flags: g.Message.Flags}
	}
	switch d := g.Data.(type) {
	case discordgo.ApplicationCommandInteractionData:
		in.Data = &interactionData{Name: d.Name, Options: fromOptions(d.Options)}
		if d.Resolved != nil {
			in.Data.Resolved = &resolved{}
			if d.Resolved.Users != nil {
				in.Data.Resolved.Users = make(map[string]*user, len(d.Resolved.Users))
				for id, u := range d.Resolved.Users {
					in.Data.Resolved.Users[id] = fromUser(u)
				}
			}
		}
	case discordgo.MessageComponentInteractionData:
		in.Data = &interactionData{CustomID: d.CustomID}
	}
	return in
}

func fromUser(u *discordgo.User) *user {
	if u == nil {
		return nil
	}
	return &user{ID: u.ID, Username: u.Username, GlobalName: u.GlobalName, Bot: u.Bot}
}

func fromOptions(opts []*discordgo.ApplicationCommandInteractionDataOption) []*option {
	if opts == nil {
		return nil
	}
	out := make([]*option, 0, len(opts))
	for _, o := range opts {
		if o != nil {
			out = append(out, &option{Name: o.Name, Type: o.Type, Value: o.Value, Options: fromOptions(o.Options)})
		}
	}
	return out
}
