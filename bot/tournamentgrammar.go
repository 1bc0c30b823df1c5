package bot

import (
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/tournament"
)

// TournamentAsk is what "tournament new" asks for beside the board and the
// time control (Request.Variant): the format, a Swiss's rounds (0: the
// tournament chooses) and a double round robin.
type TournamentAsk struct {
	Format tournament.Format
	Rounds int
	Double bool
}

// tournamentVerbs are the words after "tournament" that need nothing more.
var tournamentVerbs = map[string]Kind{
	"join": KindTournamentJoin, "start": KindTournamentStart, "withdraw": KindTournamentWithdraw,
	"leave": KindTournamentWithdraw, "cancel": KindTournamentCancel,
	"standings": KindTournament, "table": KindTournament,
}

// parseTournament reads what follows "tournament": nothing (the table),
// join, start, withdraw, cancel, or "new round-robin|swiss [rounds N]
// [double] [clock M+S|days N] [COLSxROWS] [connect N]". ok is false for
// words it does not know; err is a one-line refusal of a bad value.
func parseTournament(words []string) (req Request, ok bool, err error) {
	if len(words) == 0 {
		return Request{Kind: KindTournament}, true, nil
	}
	verb := strings.ToLower(words[0])
	if k, found := tournamentVerbs[verb]; found {
		return Request{Kind: k}, len(words) == 1, nil
	}
	if verb != "new" || len(words) < 2 {
		return Request{}, false, nil
	}
	req.Kind = KindTournamentNew
	switch strings.ToLower(words[1]) {
	case "round-robin", "roundrobin", "round_robin", "rr", "berger":
		req.Tournament.Format = tournament.RoundRobin
	case "swiss":
		req.Tournament.Format = tournament.Swiss
	default:
		return req, true, &UserError{Problem: ProblemUsage, ID: "tournament.problem.format", Args: lang.Args{"Format": strconv.Quote(words[1])}}
	}
	var rest []string
	for i := 2; i < len(words); i++ {
		switch strings.ToLower(words[i]) {
		case "double":
			req.Tournament.Double = true
		case "rounds":
			v := ""
			if i+1 < len(words) {
				v = words[i+1]
				i++
			}
			n, err := tournament.ParseRounds(v)
			if err != nil {
				return req, true, &UserError{Problem: ProblemBadVariant, ID: "tournament.problem.rounds", Args: lang.Args{"Max": tournament.MaxRounds}}
			}
			req.Tournament.Rounds = n
		default:
			rest = append(rest, words[i])
		}
	}
	v, err := parseVariant(rest)
	if err != nil {
		return req, true, err
	}
	if v.FirstTo != 0 || v.First != 0 {
		return req, true, &UserError{Problem: ProblemBadVariant, ID: "tournament.problem.single"}
	}
	req.Variant = v
	return req, true, nil
}
