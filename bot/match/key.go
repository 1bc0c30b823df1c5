package match

import (
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// maxKeyPart is the longest platform, workspace or channel name a Key accepts, in bytes.
const maxKeyPart = 128

// Key names one channel. A channel holds several games, each addressed by
// its Record.ID; a player is in at most one active game or open challenge
// per channel. Platform is the chat platform ("slack", "discord"), Workspace the
// Slack team or Discord guild, Channel the channel id.
type Key struct{ Platform, Workspace, Channel string }

// String returns the key as "platform:workspace:channel", the form used inside
// the Redis hash tag and in error messages.
func (k Key) String() string { return k.Platform + ":" + k.Workspace + ":" + k.Channel }

// Validate reports whether every part of k is non-empty, at most 128 bytes of
// valid UTF-8, and free of '{', '}', ':', whitespace and control characters,
// so that the key maps to exactly one Redis hash tag. The error names the part.
func (k Key) Validate() error {
	var errs []error
	for _, p := range [...]struct{ name, val string }{
		{"platform", k.Platform}, {"workspace", k.Workspace}, {"channel", k.Channel},
	} {
		if err := validKeyPart(p.val); err != nil {
			errs = append(errs, fmt.Errorf("%s %q: %w", p.name, p.val, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("match: invalid key: %w", errors.Join(errs...))
	}
	return nil
}

func validKeyPart(s string) error {
	switch {
	case s == "":
		return errors.New("empty")
	case len(s) > maxKeyPart:
		return fmt.Errorf("longer than %d bytes", maxKeyPart)
	case !utf8.ValidString(s):
		return errors.New("not valid UTF-8")
	}
	for i := 0; i < len(s); i++ { // the usual ASCII ids without decoding runes
		if c := s[i]; c >= utf8.RuneSelf {
			return validRunes(s[i:])
		} else if c <= ' ' || c == 0x7f || c == '{' || c == '}' || c == ':' {
			return fmt.Errorf("contains %q", c)
		}
	}
	return nil
}

func validRunes(s string) error {
	for _, r := range s {
		if r == '{' || r == '}' || r == ':' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return fmt.Errorf("contains %q", r)
		}
	}
	return nil
}
