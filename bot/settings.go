package bot

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// settingsBudget bounds the read of a channel's settings when a reply
// shows a board: a store that is slow to answer costs the picture (the
// reply shows the default), never the reply.
const settingsBudget = 300 * time.Millisecond

// settings shows the channel's settings (a note to the person asking) or
// changes them (an announcement in the channel). Anyone may change the
// palette, so that a colour-blind player never needs to find an admin;
// choosing pictures or emoji for everyone's boards, or the channel's
// language, needs Command.CanManage.
func (s *Service) settings(ctx context.Context, cmd Command) (Reply, error) {
	change := cmd.Settings
	if change == (match.Settings{}) {
		st, err := s.store.Settings(ctx, cmd.Key)
		if err != nil {
			return Reply{}, err
		}
		s.looks.Put(cmd.Key, st, s.opt.Now())
		l := s.userLang(cmd)
		return Reply{Visibility: Ephemeral, Lang: l, Text: say(l, "setting.show", withSyntax(lang.Args{"Settings": settingsText(st)}, l, cmd.Key.Platform))}, nil
	}
	if change.Language != "" && change.Language != match.LanguageDefault {
		code, ok := lang.Parse(change.Language)
		if !ok {
			return Reply{}, badLanguage(change.Language)
		}
		change.Language = code.String()
	}
	if change.Board != match.BoardDefault && !cmd.CanManage {
		return Reply{}, userErr(ProblemBoardManager)
	}
	if change.Language != "" && !cmd.CanManage {
		return Reply{}, userErr(ProblemLanguageManager)
	}
	st, err := s.store.SetSettings(ctx, cmd.Key, change)
	if err != nil {
		return Reply{}, err
	}
	s.looks.Put(cmd.Key, st, s.opt.Now())
	l := s.channelLang(ctx, cmd, nil) // the new setting's, if any
	return Reply{Visibility: Public, People: []match.Player{cmd.User}, Lang: l,
		Text: say(l, "setting.changed", lang.Args{"Player": mention(cmd.User), "Settings": settingsText(st)})}, nil
}

// badLanguage is the refusal of a language code the bot does not speak,
// listing those it does.
func badLanguage(code string) error {
	codes := make([]string, len(lang.All))
	for i, l := range lang.All {
		codes[i] = l.String()
	}
	if len(code) > 40 {
		code = code[:40]
	}
	return userErr(ProblemBadLanguage, lang.Args{"Code": strconv.Quote(code), "Codes": strings.Join(codes, ", ")})
}

// settingsText says st in words: "pictures, in the colour-blind palette",
// and the channel's language when it has chosen one.
func settingsText(st match.Settings) phrase {
	board := "setting.board.image"
	if st.Board == match.BoardEmoji {
		board = "setting.board.emoji"
	}
	pal := "setting.palette.standard"
	if st.Palette == match.PaletteColourBlind {
		pal = "setting.palette.colourBlind"
	}
	args := lang.Args{"Board": phrase{board, nil}, "Palette": phrase{pal, nil}}
	if l, ok := lang.ParseCode(st.Language); ok {
		args["Language"] = l.Name()
		return phrase{"setting.looksLanguage", args}
	}
	return phrase{"setting.looks", args}
}

// look returns the channel k's settings, kept for settingsTTL after a read
// (so that a game's moves cost no extra round trip), read within
// settingsBudget on a miss. The caller logs a failure and shows the
// defaults: the reply matters more than its look or language.
func (s *Service) look(ctx context.Context, k match.Key) (match.Settings, error) {
	now := s.opt.Now()
	if st, ok := s.looks.Get(k, now); ok {
		return st, nil
	}
	ctx, cancel := context.WithTimeout(ctx, settingsBudget)
	defer cancel()
	st, err := s.store.Settings(ctx, k)
	if err != nil {
		return match.Settings{}, err
	}
	s.looks.Put(k, st, now)
	return st, nil
}

// withLook fills in r.Look with the channel's settings when r shows a board
// to the channel (through look: the read that gave the reply its language
// gives its look too), and r.Finished when cmd ended the game r shows. A
// store that fails or is slow leaves the defaults (and a Warn line): the
// reply matters more than its picture.
func (s *Service) withLook(ctx context.Context, cmd Command, r Reply) Reply {
	if r.Game == nil || r.Visibility == Ephemeral || r.Visibility == VisibilityNone {
		return r
	}
	switch cmd.Kind {
	case KindDrop, KindResign, KindClaim:
		r.Finished = r.Game.State().Over()
	}
	st, err := s.look(ctx, cmd.Key)
	if err != nil {
		s.log.Warn("channel settings unavailable; showing the default board", "channel", cmd.Key.String(), "err", err)
		return r
	}
	r.Look = st
	return r
}

// settingsTTL is how long a Service keeps a channel's settings after
// reading them, so that a game's moves cost no extra round trip. A change
// made through this Service shows at once; one made through another
// replica within settingsTTL.
const settingsTTL = 10 * time.Second

// maxCachedSettings bounds the channels whose settings a Service keeps.
const maxCachedSettings = 4096
