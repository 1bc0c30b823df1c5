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
// command's context carries, one per command. An announcement is a Reply:
// its Text is added to the command's reply, its Edits (the table's
// message) and Posts (the new round's games) are added to the reply's.

type newsKey struct{}

// news collects the announcements made while one command runs.
type news struct {
	mu    sync.Mutex
	texts []string
	edits []Edit
	posts []Reply
}

// withNews returns ctx carrying a new collector, and the collector.
func withNews(ctx context.Context) (context.Context, *news) {
	n := &news{}
	return context.WithValue(ctx, newsKey{}, n), n
}

// addNews adds r, unless it says nothing, to ctx's collector, if it has
// one.
func addNews(ctx context.Context, r Reply) {
	n, ok := ctx.Value(newsKey{}).(*news)
	if !ok || (r.Text == "" && !r.Aside()) {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if r.Text != "" {
		n.texts = append(n.texts, r.Text)
	}
	n.edits = append(n.edits, r.Edits...)
	n.posts = append(n.posts, r.Posts...)
}

// into returns r with the announcements collected: their text after its
// own, their edits and posts after its own.
func (n *news) into(r Reply) Reply {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.texts) > 0 {
		r.Text = strings.TrimSpace(r.Text + "\n\n" + strings.Join(n.texts, "\n\n"))
	}
	if len(n.edits) > 0 {
		r.Edits = append(r.Edits, n.edits...)
	}
	if len(n.posts) > 0 {
		r.Posts = append(r.Posts, n.posts...)
	}
	return r
}

// withTournamentNews adds a tournament's announcement to a flag's notice:
// as a new message in the channel, after the one the notice posts, which
// carries the announcement's edits and posts (the worker makes them once
// it is posted).
func withTournamentNews(l lang.Lang, n Notice, r Reply) Notice {
	switch {
	case r.Text == "" && !r.Aside():
	case n.Post != nil:
		p := *n.Post
		p.Text = strings.TrimSpace(p.Text + "\n\n" + r.Text)
		p.Edits = append(p.Edits, r.Edits...)
		p.Posts = append(p.Posts, r.Posts...)
		n.Post = &p
	default:
		n.Post = &Reply{Visibility: Public, Text: r.Text, Lang: l, Edits: r.Edits, Posts: r.Posts}
	}
	return n
}
