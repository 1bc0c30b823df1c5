package bot

import (
	"context"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
)

// TournamentStore keeps each channel's tournament (one at a time) for the
// tournament use cases: sessions.Redis and sessions.Memory implement it.
// Every write is a compare-and-set on the tournament's id and version, so
// that replicas racing on one tournament never overwrite each other.
type TournamentStore interface {
	// CreateTournament stores t as its channel's tournament; it returns
	// an error wrapping tournament.ErrExists while another one takes
	// players or runs.
	CreateTournament(ctx context.Context, t *tournament.Tournament) error
	// Tournament returns a copy of channel k's tournament, an error
	// wrapping tournament.ErrNotFound when there is none, a
	// *match.CorruptError for a damaged one.
	Tournament(ctx context.Context, k match.Key) (*tournament.Tournament, error)
	// UpdateTournament runs fn on a copy of tournament id of channel k
	// and compare-and-sets the result (fn may run more than once);
	// match.ErrNoChange from fn writes nothing; any other error of fn
	// is returned as is.
	UpdateTournament(ctx context.Context, k match.Key, id string, fn func(*tournament.Tournament) error) (*tournament.Tournament, error)
	// AdvanceTournament starts round round+1 of tournament id (or ends
	// it after its last round) once round is complete: of callers racing
	// on one round exactly one gets advanced true, and only that caller
	// posts the new round or the final standings.
	AdvanceTournament(ctx context.Context, k match.Key, id string, round int) (t *tournament.Tournament, advanced bool, err error)
	// TournamentHistory returns the channel's finished tournaments,
	// newest first (at most tournament.MaxHistory): each recorded once,
	// by the write that finished it.
	TournamentHistory(ctx context.Context, k match.Key) ([]tournament.Summary, error)
}
