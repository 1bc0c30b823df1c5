package bot

import (
	"regexp"
	"strconv"
	"strings"
	"time"

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
	// RoundLimit is each round's time limit ("round 2h"), 0 for none.
	RoundLimit time.Duration
	// Start is when it starts on its own: StartIn after the command
	// ("start in 2h"), or at StartClock, a time of day in UTC ("start
	// 18:00", today's); both zero: when the organiser says.
	StartIn    time.Duration
	StartClock time.Duration
	StartSet   bool
	// RoundText and StartText are the round limit and the start as an
	// adapter with options took them ("2h", "18:00" or "in 2h"), for the
	// command to read (SetRoundLimit, SetStart) and refuse in the
	// player's language; "" for none.
	RoundText, StartText string
	// History asks for the channel's finished tournaments (tournament
	// history) rather than the current one's table.
	History bool
}

// limitWord matches the argument of "round" and "start in": a number
// and m (minutes), h (hours) or d (days).
var limitWord = regexp.MustCompile(`^([0-9]{1,5})([mhd])$`)

// parseSpan reads "30m", "2h" or "1d"; ok is false for anything else.
func parseSpan(s string) (time.Duration, bool) {
	m := limitWord.FindStringSubmatch(strings.ToLower(s))
	if m == nil {
		return 0, false
	}
	n, _ := strconv.Atoi(m[1])
	unit := map[string]time.Duration{"m": time.Minute, "h": time.Hour, "d": 24 * time.Hour}[m[2]]
	return time.Duration(n) * unit, true
}

// SetRoundLimit sets a's round time limit from s, "30m", "2h" or "1d"
// (MinRoundLimit to MaxRoundLimit); anything else is a one-line refusal
// that changes nothing.
func (a *TournamentAsk) SetRoundLimit(s string) error {
	d, ok := parseSpan(s)
	if !ok || d < tournament.MinRoundLimit || d > tournament.MaxRoundLimit {
		return &UserError{Problem: ProblemBadVariant, ID: "tournament.problem.roundLimit"}
	}
	a.RoundLimit = d
	return nil
}

// SetStart sets a's start from s: "18:00" (today, UTC) or "in 2h" (up to
// MaxStartAhead); anything else is a one-line refusal that changes
// nothing. Whether 18:00 has passed is for the command to say.
func (a *TournamentAsk) SetStart(s string) error {
	bad := &UserError{Problem: ProblemBadVariant, ID: "tournament.problem.startTime"}
	f := strings.Fields(strings.ToLower(s))
	switch {
	case len(f) == 2 && f[0] == "in":
		d, ok := parseSpan(f[1])
		if !ok || d <= 0 || d > tournament.MaxStartAhead {
			return bad
		}
		a.StartIn, a.StartClock = d, 0
	case len(f) == 1 && clockWord.MatchString(f[0]):
		m := clockWord.FindStringSubmatch(f[0])
		h, _ := strconv.Atoi(m[1])
		mi, _ := strconv.Atoi(m[2])
		a.StartIn, a.StartClock = 0, time.Duration(h)*time.Hour+time.Duration(mi)*time.Minute
	default:
		return bad
	}
	a.StartSet = true
	return nil
}

// clockWord matches the argument of "start": a time of day, 24-hour.
var clockWord = regexp.MustCompile(`^([01]?[0-9]|2[0-3]):([0-5][0-9])$`)

// startAt resolves a's start time at now: StartIn after now, or today's
// StartClock in UTC; zero when none was asked for.
func (a TournamentAsk) startAt(now time.Time) time.Time {
	switch {
	case !a.StartSet:
		return time.Time{}
	case a.StartIn > 0:
		return now.Add(a.StartIn).Truncate(time.Second)
	}
	y, mo, d := now.UTC().Date()
	return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC).Add(a.StartClock)
}

// tournamentVerbs are the words after "tournament" that need nothing more.
var tournamentVerbs = map[string]Kind{
	"join": KindTournamentJoin, "start": KindTournamentStart, "withdraw": KindTournamentWithdraw,
	"leave": KindTournamentWithdraw, "cancel": KindTournamentCancel,
	"standings": KindTournament, "table": KindTournament,
}

// parseTournament reads what follows "tournament": nothing (the table),
// join, start, withdraw, cancel, history, or "new round-robin|swiss [rounds N]
// [double] [clock M+S|days N] [round 30m|2h|1d] [start HH:MM|start in
// 2h] [COLSxROWS] [connect N]". ok is false for
// words it does not know; err is a one-line refusal of a bad value.
func parseTournament(words []string) (req Request, ok bool, err error) {
	if len(words) == 0 {
		return Request{Kind: KindTournament}, true, nil
	}
	verb := strings.ToLower(words[0])
	if verb == "history" || verb == "past" {
		return Request{Kind: KindTournament, Tournament: TournamentAsk{History: true}}, len(words) == 1, nil
	}
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
		case "round", "limit":
			v := ""
			if i+1 < len(words) {
				v, i = words[i+1], i+1
			}
			if err := req.Tournament.SetRoundLimit(v); err != nil {
				return req, true, err
			}
		case "start":
			n := 1
			if i+1 < len(words) && strings.EqualFold(words[i+1], "in") {
				n = 2
			}
			if err := req.Tournament.SetStart(strings.Join(words[i+1:min(i+1+n, len(words))], " ")); err != nil {
				return req, true, err
			}
			i += n
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
