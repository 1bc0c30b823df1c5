package bot

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/slots"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// The read-only use cases of the web pages (package bot/web): what a game,
// a channel and a player page show, read through the Store like every
// other use case, and the analysis a game page asks for. A page shows only
// what its channel already shows in chat.

// Why a page's analysis was not made.
var (
	// ErrNotAnalyzable: the game is not over, has no move, or is not a
	// game of two (the solver judges only those).
	ErrNotAnalyzable = errors.New("bot: this game cannot be analysed")
	// ErrAnalysisBusy: every search slot is taken, or the deadline leaves
	// no time; asking again in a moment may work.
	ErrAnalysisBusy = errors.New("bot: no time to analyse now")
)

// GamePage is what a game's page shows: its players in colour order, the
// game (every move, how it ended), and the solver's verdicts when the game
// was analysed.
type GamePage struct {
	Key     match.Key
	ID      string
	Version int64 // the record's version: a page is cached per version
	Status  match.Status
	Finish  match.Finish
	// Players are the players by colour, Red first.
	Players []match.Player
	Game    *engine.Game
	// Analysis is the solver's analysis of Game, or nil when it has none
	// (then Analyzable says whether one may be asked for).
	Analysis   *solver.Analysis
	Analyzable bool
	FirstTo    int
	Score      [2]int // the challenger's and the opponent's wins, for FirstTo > 1
	AILevel    solver.Level
	Puzzle     bool
	Rating     *match.RatingChange
	Updated    time.Time
	Look       match.Settings
}

// Winner returns the player who won Game, and false when nobody did (a
// draw, or a game not over).
func (p GamePage) Winner() (match.Player, bool) {
	w := p.Game.Winner()
	if w == engine.NoPlayer || int(w) > len(p.Players) {
		return match.Player{}, false
	}
	return p.Players[w-1], true
}

// GameSummary is one game in a list of a channel's or player's games.
type GameSummary struct {
	ID      string
	Status  match.Status
	Finish  match.Finish
	Players []match.Player // by colour, Red first
	Winner  match.Player   // zero for a draw or a game not over
	Moves   int
	Config  engine.Config
	Updated time.Time
}

// ChannelPage is what a channel's page shows: the leaderboard, the past
// seasons, the games being played and the results the store still keeps.
type ChannelPage struct {
	Key match.Key
	// Rated are the season's rated players, highest rating first;
	// Unrated those on the leaderboard without a rating (games of 3 or 4
	// only, or games from before ratings), by wins.
	Rated, Unrated []match.Standing
	Seasons        []match.Season // newest first
	Playing        []GameSummary  // oldest first
	Recent         []GameSummary  // latest first
}

// PlayerPage is what a player's page in a channel shows.
type PlayerPage struct {
	Key      match.Key
	Standing match.Standing // Player, counts, rating and rating history
	// HeadToHead holds the player's record this season against each
	// opponent on the channel's leaderboard they have played, most games
	// first.
	HeadToHead []Versus
	Games      []GameSummary // their game being played and the last they finished, latest first
}

// Versus is a player's record against one opponent.
type Versus struct {
	Opponent match.Player
	match.HeadToHead
}

// pageLookup bounds the players a page reads about: a channel's regulars
// are far fewer.
const pageLookup = 200

// GamePage returns the page of game id in channel k: match.ErrNoGame when
// the store has no such game (never played, or gone since), and the
// store's errors as they are. It is safe for concurrent use.
func (s *Service) GamePage(ctx context.Context, k match.Key, id string) (GamePage, error) {
	rec, err := s.store.Load(ctx, k, id)
	if err != nil {
		return GamePage{}, err
	}
	if !rec.Started() || rec.Game == nil {
		return GamePage{}, match.ErrNoGame // a challenge: nothing to show
	}
	look, err := s.store.Settings(ctx, k)
	if err != nil {
		s.log.Warn("channel settings unavailable; the page shows the default board", "channel", k.String(), "err", err)
	}
	return gamePage(rec, look), nil
}

func gamePage(rec *match.Record, look match.Settings) GamePage {
	g := rec.Game
	p := GamePage{Key: rec.Key, ID: rec.ID, Version: rec.Version, Status: rec.Status, Finish: rec.Finish,
		Players: inTurnOrder(rec), Game: g, FirstTo: rec.FirstTo, AILevel: rec.AILevel, Puzzle: rec.Puzzle != nil,
		Rating: rec.Rating, Updated: rec.Updated, Look: look}
	p.Score[0], p.Score[1] = rec.Score()
	if a := rec.Analysis; a != nil && slices.Equal(a.Columns(), g.History()) {
		p.Analysis = a
	}
	p.Analyzable = p.Analysis == nil && rec.Status == match.StatusFinished && g.Moves() > 0 && analyzable(g)
	return p
}

// AnalyzeGame analyses finished game id of channel k with the same budget
// and search slots as the chat's Analysis button, keeps the analysis on
// the record, and returns the game's page with it. An analysis already
// kept costs no solve. It returns match.ErrNoGame for a game that is gone,
// ErrNotAnalyzable for one the solver cannot judge (not over, no move,
// more than two players), ErrAnalysisBusy when no search slot or no time
// is free, and the store's errors.
func (s *Service) AnalyzeGame(ctx context.Context, k match.Key, id string) (GamePage, error) {
	p, err := s.GamePage(ctx, k, id)
	if err != nil || p.Analysis != nil {
		return p, err
	}
	if !p.Analyzable {
		return GamePage{}, ErrNotAnalyzable
	}
	history := p.Game.History()
	a, err := s.runAnalysis(ctx, p.Game)
	if errors.Is(err, slots.ErrBusy) || errors.Is(err, errNoTime) {
		return GamePage{}, ErrAnalysisBusy
	}
	if err != nil {
		return GamePage{}, err
	}
	rec, err := s.store.Update(match.WithNonce(ctx, ""), k, id, func(r *match.Record) (match.Tally, error) {
		if r.Status != match.StatusFinished || !slices.Equal(r.Game.History(), history) {
			return match.Tally{}, match.ErrNoChange
		}
		r.Analysis = &a
		return match.Tally{}, nil
	})
	if err != nil {
		s.log.Warn("analysis not kept", "channel", k.String(), "err", err)
		p.Analysis = &a
		return p, nil
	}
	out := gamePage(rec, p.Look)
	if out.Analysis == nil { // the record moved on meanwhile
		out.Analysis = &a
	}
	return out, nil
}

// ChannelPage returns the page of channel k. It reads the ratings, the
// leaderboard, the seasons, the active games and each leaderboard
// player's last finished game (the store keeps finished games for a
// while: those are the recent results). It is safe for concurrent use.
func (s *Service) ChannelPage(ctx context.Context, k match.Key) (ChannelPage, error) {
	if err := k.Validate(); err != nil {
		return ChannelPage{}, err
	}
	p := ChannelPage{Key: k}
	var err error
	if p.Rated, err = s.store.Ratings(ctx, k, pageLookup); err != nil {
		return ChannelPage{}, err
	}
	board, err := s.store.Leaderboard(ctx, k, pageLookup)
	if err != nil {
		return ChannelPage{}, err
	}
	rated := make(map[string]bool, len(p.Rated))
	for _, st := range p.Rated {
		rated[st.Player.ID] = true
	}
	for _, st := range board {
		if !rated[st.Player.ID] {
			p.Unrated = append(p.Unrated, st)
		}
	}
	if p.Seasons, err = s.store.Seasons(ctx, k); err != nil {
		return ChannelPage{}, err
	}
	active, err := s.store.Active(ctx, k)
	if err != nil {
		return ChannelPage{}, err
	}
	for _, rec := range active {
		if rec.Status == match.StatusPlaying && rec.Game != nil {
			p.Playing = append(p.Playing, summary(rec))
		}
	}
	seen := map[string]bool{}
	for _, st := range board {
		rec, err := s.store.LastFinished(ctx, k, st.Player.ID)
		if errors.Is(err, match.ErrNoGame) {
			continue
		}
		if err != nil {
			return ChannelPage{}, err
		}
		if !seen[rec.ID] && rec.Started() {
			seen[rec.ID] = true
			p.Recent = append(p.Recent, summary(rec))
		}
	}
	slices.SortStableFunc(p.Recent, func(a, b GameSummary) int { return b.Updated.Compare(a.Updated) })
	return p, nil
}

// PlayerPage returns the page of player userID in channel k:
// match.ErrNoGame when they have no game in the channel that the store
// knows of (no standing, no game being played, none kept finished). It is
// safe for concurrent use.
func (s *Service) PlayerPage(ctx context.Context, k match.Key, userID string) (PlayerPage, error) {
	if err := k.Validate(); err != nil {
		return PlayerPage{}, err
	}
	st, err := s.store.Stats(ctx, k, userID)
	if err != nil {
		return PlayerPage{}, err
	}
	p := PlayerPage{Key: k, Standing: st}
	if rec, err := s.store.PlayerGame(ctx, k, userID); err == nil && rec.Status == match.StatusPlaying {
		p.Games = append(p.Games, summary(rec))
	} else if err != nil && !errors.Is(err, match.ErrNoGame) {
		return PlayerPage{}, err
	}
	if rec, err := s.store.LastFinished(ctx, k, userID); err == nil && rec.Started() {
		p.Games = append(p.Games, summary(rec))
	} else if err != nil && !errors.Is(err, match.ErrNoGame) {
		return PlayerPage{}, err
	}
	for _, g := range p.Games { // the name they played under, if the standing has none
		for _, pl := range g.Players {
			if pl.ID == userID && p.Standing.Player.Name == "" {
				p.Standing.Player = pl
			}
		}
	}
	if st.Games() == 0 && len(p.Games) == 0 {
		return PlayerPage{}, match.ErrNoGame
	}
	board, err := s.store.Leaderboard(ctx, k, pageLookup)
	if err != nil {
		return PlayerPage{}, err
	}
	for _, o := range board {
		if o.Player.ID == userID {
			if p.Standing.Player.Name == "" {
				p.Standing.Player = o.Player
			}
			continue
		}
		h, err := s.store.HeadToHead(ctx, k, userID, o.Player.ID)
		if err != nil {
			return PlayerPage{}, err
		}
		if h.Games() > 0 {
			p.HeadToHead = append(p.HeadToHead, Versus{Opponent: o.Player, HeadToHead: h})
		}
	}
	slices.SortStableFunc(p.HeadToHead, func(a, b Versus) int { return cmp.Compare(b.Games(), a.Games()) })
	slices.SortStableFunc(p.Games, func(a, b GameSummary) int { return b.Updated.Compare(a.Updated) })
	return p, nil
}

// PageLang is the language of channel k's pages: the channel's language
// setting, else English (a page has no reader's locale to go by).
func (s *Service) PageLang(ctx context.Context, k match.Key) lang.Lang {
	return s.settingLang(ctx, k).Or(lang.English)
}

func summary(rec *match.Record) GameSummary {
	g := GameSummary{ID: rec.ID, Status: rec.Status, Finish: rec.Finish, Players: inTurnOrder(rec),
		Moves: rec.Game.Moves(), Config: rec.Game.Config(), Updated: rec.Updated}
	if w := rec.Game.Winner(); w != engine.NoPlayer && rec.Game.State().Over() {
		g.Winner = rec.PlayerOf(w)
	}
	return g
}
