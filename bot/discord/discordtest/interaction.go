package discordtest

// Interaction types, from Discord's documentation.
const (
	TypePing               = 1
	TypeApplicationCommand = 2
	TypeMessageComponent   = 3
)

// Application command option types, from Discord's documentation.
const (
	OptionSubCommand = 1
	OptionString     = 3
	OptionInteger    = 4
	OptionUser       = 6
)

// ComponentButton is the component type of a button.
const ComponentButton = 2

// User is a Discord user as interactions carry it.
type User struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

// Member is a guild member: the user who acted in a guild.
type Member struct {
	User User `json:"user"`
	// Permissions is the member's permission bit set in the channel, in
	// decimal, as Discord sends it; "" for none.
	Permissions string `json:"permissions,omitempty"`
}

// MessageRef is the message a clicked button is on: the part of it the bot
// may read.
type MessageRef struct {
	ID        string `json:"id"`
	ChannelID string `json:"channel_id"`
}

// Interaction is one interaction as Discord posts it. Data is a
// CommandData, a ComponentData, or nil for a PING.
type Interaction struct {
	ID            string      `json:"id"`
	ApplicationID string      `json:"application_id"`
	Type          int         `json:"type"`
	Token         string      `json:"token"`
	Version       int         `json:"version"`
	GuildID       string      `json:"guild_id,omitempty"`
	ChannelID     string      `json:"channel_id,omitempty"`
	Member        *Member     `json:"member,omitempty"`
	User          *User       `json:"user,omitempty"` // in a DM, instead of Member
	Data          any         `json:"data,omitempty"`
	Message       *MessageRef `json:"message,omitempty"`
}

// CommandData is the data of an application command interaction.
type CommandData struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Type     int       `json:"type"`
	Options  []Option  `json:"options,omitempty"`
	Resolved *Resolved `json:"resolved,omitempty"`
}

// Option is an option of a command, or a subcommand with its options.
type Option struct {
	Name    string   `json:"name"`
	Type    int      `json:"type"`
	Value   any      `json:"value,omitempty"`
	Options []Option `json:"options,omitempty"`
}

// Resolved holds the users that user options name.
type Resolved struct {
	Users map[string]User `json:"users"`
}

// ComponentData is the data of a button click.
type ComponentData struct {
	CustomID      string `json:"custom_id"`
	ComponentType int    `json:"component_type"`
}

// Ping returns the PING Discord sends to check an endpoint.
func Ping(appID string) Interaction {
	return Interaction{ID: "1", ApplicationID: appID, Type: TypePing, Token: "ping", Version: 1}
}

// Slash returns the data of /connect4 <sub> with opts; users are resolved
// for the user options that name them.
func Slash(sub string, opts []Option, users ...User) CommandData {
	d := CommandData{ID: "1", Name: "connect4", Type: 1,
		Options: []Option{{Name: sub, Type: OptionSubCommand, Options: opts}}}
	if len(users) > 0 {
		d.Resolved = &Resolved{Users: map[string]User{}}
		for _, u := range users {
			d.Resolved.Users[u.ID] = u
		}
	}
	return d
}

// UserOption returns a user option naming u.
func UserOption(name string, u User) Option {
	return Option{Name: name, Type: OptionUser, Value: u.ID}
}

// Click returns the data of a click on the button with customID.
func Click(customID string) ComponentData {
	return ComponentData{CustomID: customID, ComponentType: ComponentButton}
}
