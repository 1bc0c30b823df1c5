package match

// Player is a chat user (or the AI) taking part in a game.
type Player struct {
	ID   string // chat user id, unique within the workspace
	Name string // display name at the time of the challenge
}

// MessageRef is what a platform needs to edit a game's message without a
// click: Slack's channel and timestamp, or Discord's channel and message id.
// Adapters fill it from the message a button was clicked on; the bot keeps
// it on the record so that edits it makes on its own (expiries, reminders)
// find the message.
type MessageRef struct{ Channel, Timestamp, MessageID string }

// IsZero reports whether m names no message.
func (m MessageRef) IsZero() bool { return m == MessageRef{} }
