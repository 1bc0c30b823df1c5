package bot

import (
	"context"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// Who reads what: a reply to one person alone (an ephemeral refusal, an
// analysis or stats only they see) is in their own language; a message
// the whole channel sees (the game, announcements, leaderboards, timed
// messages) is in the channel's.

// userLang is the language of the person who sent cmd: their locale as the
// platform gives it, else English. An unknown or malformed locale reads as
// English.
func (s *Service) userLang(cmd Command) lang.Lang {
	l, ok := lang.Parse(cmd.Locale)
	if !ok && cmd.Locale != "" {
		s.log.Debug("unknown locale; English", "locale", clipLocale(cmd.Locale))
	}
	return l.Or(lang.English)
}

// channelLang is the language of messages the whole channel of cmd sees:
// the channel's language setting, else the platform's locale for the
// channel (Discord's guild_locale), else the language rec was created in
// (its creator's; rec may be nil), else the sender's. It reads the
// settings through the same cache as the board's look, so a move costs no
// extra store read.
func (s *Service) channelLang(ctx context.Context, cmd Command, rec *match.Record) lang.Lang {
	if l := s.settingLang(ctx, cmd.Key); l != lang.Unset {
		return l
	}
	if l, ok := lang.Parse(cmd.ChannelLocale); ok {
		return l
	}
	if rec != nil {
		if l, ok := lang.Parse(rec.Lang); ok {
			return l
		}
	}
	return s.userLang(cmd)
}

// newGameLang is the language a new game or challenge of cmd is created
// in, kept in its record (match.Record.Lang) for the messages sent without
// a command (timed ones): the platform's locale for the channel, else the
// creator's. The channel's setting is left out: it wins over the record's
// language whenever it is set, so storing it would only matter once it is
// cleared, when the platform's choice is what "default" means; and leaving
// it out keeps a store read off the path before the game's first write.
func (s *Service) newGameLang(cmd Command) lang.Lang {
	if l, ok := lang.Parse(cmd.ChannelLocale); ok {
		return l
	}
	return s.userLang(cmd)
}

// timedLang is the language of a timed message about rec (an expiry, a
// reminder, a timeout), with no command to ask: the channel's setting,
// else the language rec was created in, else English.
func (s *Service) timedLang(ctx context.Context, rec *match.Record) lang.Lang {
	if l := s.settingLang(ctx, rec.Key); l != lang.Unset {
		return l
	}
	l, _ := lang.Parse(rec.Lang)
	return l.Or(lang.English)
}

// settingLang is the channel's language setting, or Unset. It reads the
// settings through look, the cache the board's look is read through: on a
// hit no store read; on a miss the one read serves the look as well. A
// store that fails leaves Unset (the platform's choice), as an unknown
// stored code does.
func (s *Service) settingLang(ctx context.Context, k match.Key) lang.Lang {
	st, err := s.look(ctx, k)
	if err != nil {
		// The reply's look (withLook) or the refusal says so at Warn.
		s.log.Debug("channel settings unavailable; the platform's language", "channel", k.String(), "err", err)
		return lang.Unset
	}
	if st.Language == "" {
		return lang.Unset
	}
	l, ok := lang.ParseCode(st.Language)
	if !ok {
		s.log.Debug("unknown channel language; the platform's", "channel", k.String(), "language", clipLocale(st.Language))
	}
	return l
}

// clipLocale bounds a locale for a log line.
func clipLocale(s string) string {
	if len(s) > 40 {
		return s[:40]
	}
	return s
}
