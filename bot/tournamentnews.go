package bot

import (
	"context"
	"strings"
	"sync"

	"github.com/connect4/connect4/bot/lang"
)

// The announcements of a tournament (its next round, its final table)
// come from the write that ended a game, deep in a use case; they travel
// back to the reply of the command that made it in a collector the
// command's context carries, one per command.

type newsKey struct{}

// news collects the announcements made while one command runs.
type news struct {
	mu    sync.Mutex
	texts []string
}

// withNews returns ctx carrying a new collector, and the collector.
func withNews(ctx context.Context) (context.Context, *news) {
	n := &news{}
	return context.WithValue(ctx, newsKey{}, n), n
}

// addNews adds text, unless empty, to ctx's collector, if it has one.
func addNews(ctx context.Context, text string) {
	n, ok := ctx.Value(newsKey{}).(*news)
	if !ok || text == "" {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.texts = append(n.texts, text)
}

// after returns text followed by the announcements collected.
func (n *news) after(text string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.texts) == 0 {
		return text
	}
	return strings.TrimSpace(text + "\n\n" + strings.Join(n.texts, "\n\n"))
}

// withTournamentNews adds a tournament's announcement to a flag's notice:
// as a new message in the channel, after the one the notice posts.
func withTournamentNews(l lang.Lang, n Notice, text string) Notice {
	switch {
	case text == "":
	case n.Post != nil:
		p := *n.Post
		p.Text = strings.TrimSpace(p.Text + "\n\n" + text)
		n.Post = &p
	default:
		n.Post = &Reply{Visibility: Public, Text: text, Lang: l}
	}
	return n
}
