package bot

import (
	"context"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"
)

// The AI plays any board, line and match a challenge between people may
// have: "ai [easy|medium|hard] [COLSxROWS] [connect N] [first-to N]", the
// options in any order after the level, as "/connect4 @bot 9x7 first-to 3"
// does.

// parseAIVariant reads what follows "ai" when no one is named: an optional
// level, then the options of a challenge. A bad level keeps the Kind, so
// that logs can name what was asked for.
func parseAIVariant(words []string) (Request, bool, error) {
	req := Request{Kind: KindAI}
	if len(words) > 0 && !sizeWord.MatchString(words[0]) && !isVariantWord(words[0]) {
		l, err := ParseLevel(words[0])
		if err != nil {
			return req, true, err
		}
		req.Level, words = l, words[1:]
	}
	v, err := parseVariant(words)
	if err != nil {
		return req, true, err
	}
	req.Variant = v
	return req, true, nil
}

// isVariantWord reports whether w starts an option of a challenge.
func isVariantWord(w string) bool {
	switch w {
	case "connect", "line", "first-to", "first_to", "firstto", "ft", "first":
		return true
	}
	return false
}

// aiMatchLevel is the level of an AI game: medium unless asked.
func aiMatchLevel(l solver.Level) solver.Level {
	if l == solver.LevelNone {
		return solver.Medium
	}
	return l
}

// aiNextRound starts the next round of a match against the AI at once (the
// AI does not need asking); ok is false for a match between people, whose
// next round is an offer.
func (s *Service) aiNextRound(ctx context.Context, cmd Command) (Reply, bool, error) {
	id, err := s.target(ctx, cmd)
	if err != nil {
		return Reply{}, false, nil // the offer says why
	}
	r, err := s.store.Load(ctx, cmd.Key, id)
	if err != nil || r.AILevel == solver.LevelNone {
		return Reply{}, false, nil
	}
	if err := offerable(r, cmd, match.OfferNextRound); err != nil {
		return Reply{}, true, err
	}
	reply, err := s.startNextRound(ctx, cmd, r.ID, r.Game.Moves())
	return reply, true, err
}
