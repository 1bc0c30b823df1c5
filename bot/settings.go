package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// settingsBudget bounds the read of a channel's settings when a reply
// shows a board: a store that is slow to answer costs the picture (the
// reply shows the default), never the reply.
const settingsBudget = 300 * time.Millisecond

// settings shows the channel's settings (a note to the person asking) or
// changes them (an announcement in the channel). Anyone may change the
// palette, so that a colour-blind player never needs to find an admin;
// choosing pictures or emoji for everyone's boards needs Command.CanManage.
func (s *Service) settings(ctx context.Context, cmd Command) (Reply, error) {
	change := cmd.Settings
	if change == (match.Settings{}) {
		st, err := s.store.Settings(ctx, cmd.Key)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Visibility: Ephemeral, Text: "This channel's boards: " + settingsText(st) +
			".\nChange them with `/connect4 settings board image|emoji` (channel managers) or `/connect4 settings palette standard|colourblind` (anyone)."}, nil
	}
	if change.Board != match.BoardDefault && !cmd.CanManage {
		return Reply{}, userErr(ProblemBoardManager)
	}
	st, err := s.store.SetSettings(ctx, cmd.Key, change)
	if err != nil {
		return Reply{}, err
	}
	s.looks.Put(cmd.Key, st, s.opt.Now())
	return Reply{Visibility: Public, People: []match.Player{cmd.User},
		Text: fmt.Sprintf("%s changed this channel's boards: %s.", mention(cmd.User), settingsText(st))}, nil
}

// settingsText says st in words: "pictures, in the colour-blind palette".
func settingsText(st match.Settings) string {
	board := "pictures where the platform can show them"
	if st.Board == match.BoardEmoji {
		board = "emoji"
	}
	pal := "the standard red and yellow"
	if st.Palette == match.PaletteColourBlind {
		pal = "the colour-blind safe blue and orange"
	}
	return board + ", in " + pal
}

// withLook fills in r.Look with the channel's settings when r shows a board
// to the channel (kept for settingsTTL after a read), and r.Finished when
// cmd ended the game r shows. A store that fails or is slow leaves the
// defaults (and a Warn line): the reply matters more than its picture.
func (s *Service) withLook(ctx context.Context, cmd Command, r Reply) Reply {
	if r.Game == nil || r.Visibility == Ephemeral || r.Visibility == VisibilityNone {
		return r
	}
	switch cmd.Kind {
	case KindDrop, KindResign, KindClaim:
		r.Finished = r.Game.State().Over()
	}
	now := s.opt.Now()
	if st, ok := s.looks.Get(cmd.Key, now); ok {
		r.Look = st
		return r
	}
	ctx, cancel := context.WithTimeout(ctx, settingsBudget)
	defer cancel()
	st, err := s.store.Settings(ctx, cmd.Key)
	if err != nil {
		s.log.Warn("channel settings unavailable; showing the default board", "channel", cmd.Key.String(), "err", err)
		return r
	}
	s.looks.Put(cmd.Key, st, now)
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
