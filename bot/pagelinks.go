package bot

import (
	"context"

	"github.com/connect4/connect4/bot/match"
)

// PageLinks makes the links to the web pages (package bot/web): signed,
// expiring, each for one channel. A method returns "" where it makes no
// link. Implementations must be safe for concurrent use.
type PageLinks interface {
	GameURL(k match.Key, gameID string) string
	ChannelURL(k match.Key) string
	PlayerURL(k match.Key, userID string) string
}

// withLinks adds to r the link button to the page that shows more of it,
// when the Service makes links: a finished game's message links to the
// game's page, the leaderboard and seasons to the channel's, stats to the
// player's.
func (s *Service) withLinks(ctx context.Context, cmd Command, r Reply) Reply {
	links := s.opt.Pages
	if links == nil || r.Problem != ProblemNone || r.Visibility == VisibilityNone {
		return r
	}
	var url, id string
	switch {
	case r.Game != nil && r.GameID != "" && r.Game.State().Over() && r.Game.Moves() > 0:
		url, id = links.GameURL(cmd.Key, r.GameID), "web.link.game"
	case cmd.Kind == KindLeaderboard || cmd.Kind == KindSeasons:
		url, id = links.ChannelURL(cmd.Key), "web.link.channel"
	case cmd.Kind == KindStats && cmd.Versus.ID == "":
		who := cmd.Target.ID
		if who == "" {
			who = cmd.User.ID
		}
		url, id = links.PlayerURL(cmd.Key, who), "web.link.player"
	}
	if url == "" {
		return r
	}
	l := s.channelLang(ctx, cmd, nil)
	if r.Visibility == Ephemeral {
		l = s.userLang(cmd)
	}
	r.Buttons = append(r.Buttons, Button{Label: l.Say(id, nil), URL: url})
	return r
}

// PagePreview is what a chat shows of a link to a web page when it
// unfurls it: a title, a line of text and, for a game, a picture of its
// board (an absolute URL, with its alternative text).
type PagePreview struct {
	Title, Text        string
	ImageURL, ImageAlt string
}

// PagePreviewer gives the preview of a link to a web page, for the
// adapters that unfurl links (Slack's link_shared): false for a URL that
// is not one of the pages' valid links. Implementations must be safe for
// concurrent use.
type PagePreviewer interface {
	Preview(ctx context.Context, url string) (PagePreview, bool)
}
