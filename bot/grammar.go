package bot

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// mention is <@ID> or <@ID|name>, the escaped form Slack sends; Discord and
// the terminal adapter use <@ID> too.
var mentionToken = regexp.MustCompile(`^<@([A-Za-z0-9_.\-]{1,128})(?:\|([^<>]{0,256}))?>$`)

// ParseMention returns the player named by a <@ID> or <@ID|name> token.
func ParseMention(s string) (match.Player, bool) {
	m := mentionToken.FindStringSubmatch(s)
	if m == nil {
		return match.Player{}, false
	}
	return match.Player{ID: m[1], Name: m[2]}, true
}

var sizeWord = regexp.MustCompile(`^(\d{1,2})\s*[x×]\s*(\d{1,2})$`)

// ParseText parses the text typed after /connect4 (as on Slack and in the
// terminal): "@user [@user2 [@user3]] [COLSxROWS] [connect N] [first-to
// N]", "challenge @user ...", "ai [easy|medium|hard] [COLSxROWS] [connect N] [first-to N]", "accept", "decline", "cancel", "resign",
// "claim", "board", "leaderboard", "stats [@user [@user]]", "rematch",
// "reset", "season new", "seasons", "settings [board image|emoji]
// [palette standard|colourblind]", "analyze", "puzzle [easy|medium|hard|hint|give up]", "help". Mentions must already be in the <@ID> form. Anything else
// returns a *UserError (ProblemUsage) whose reply is the help text; a bad
// AI level returns ProblemBadLevel with the Request's Kind still set, so
// that logs can name what was asked for.
func ParseText(text string) (Request, error) {
	words := strings.Fields(text)
	if len(words) == 0 {
		return Request{Kind: KindHelp}, nil
	}
	head := strings.ToLower(words[0])
	if n, err := strconv.Atoi(head); err == nil && len(words) == 1 && n >= 1 && n <= engine.MaxSize {
		// A column typed as a move: moves are the board's buttons.
		return Request{}, &UserError{Problem: ProblemUsage, ID: "problem.typedColumn", Args: lang.Args{"Column": n}}
	}
	if _, ok := ParseMention(words[0]); ok {
		head = "challenge"
	} else {
		words = words[1:]
	}
	if k, ok := simpleWords[head]; ok {
		if len(words) > 0 {
			return Request{}, userErr(ProblemUsage, lang.Args{"Detail": text})
		}
		return Request{Kind: k}, nil
	}
	var req Request
	var err error
	ok := true
	switch head {
	case "resign":
		req, ok = parseResign(words)
	case "season":
		req, ok = Request{Kind: KindNewSeason}, len(words) == 1 && strings.EqualFold(words[0], "new")
	case "stats":
		req, ok = parseStats(words)
	case "ai", "bot":
		req, ok, err = parseAI(words)
	case "settings", "setting":
		req, err = parseSettings(text, words)
	case "puzzle":
		req, ok, err = parsePuzzle(words)
	case "open":
		req.Kind = KindOpen
		if req.Variant, err = parseVariant(words); err != nil {
			req.Variant = Variant{}
		}
	case "challenge", "play", "vs":
		req, ok, err = parseChallenge(words)
	case "tournament", "tourney":
		req, ok, err = parseTournament(words)
	default:
		ok = false
	}
	if !ok {
		return Request{}, userErr(ProblemUsage, lang.Args{"Detail": text})
	}
	return req, err
}

// simpleWords are the commands of one word, with the words they are also
// known by.
var simpleWords = map[string]Kind{
	"help": KindHelp, "accept": KindAccept, "decline": KindDecline, "cancel": KindCancel,
	"claim": KindClaim, "board": KindBoard, "leaderboard": KindLeaderboard,
	"top": KindLeaderboard, "rematch": KindRematch, "reset": KindReset, "seasons": KindSeasons,
	"takeback": KindTakeback, "undo": KindTakeback,
	"analyze": KindAnalyze, "analyse": KindAnalyze, "analysis": KindAnalyze,
	"abort": KindAbort, "draw": KindDraw,
}

// parseResign reads what follows "resign": nothing, or "match".
func parseResign(words []string) (Request, bool) {
	switch {
	case len(words) == 0:
		return Request{Kind: KindResign}, true
	case len(words) == 1 && strings.EqualFold(words[0], "match"):
		return Request{Kind: KindResign, WholeMatch: true}, true
	}
	return Request{}, false
}

// parseStats reads what follows "stats": nothing, one mention or two.
func parseStats(words []string) (Request, bool) {
	switch len(words) {
	case 0:
		return Request{Kind: KindStats}, true
	case 1:
		if p, ok := ParseMention(words[0]); ok {
			return Request{Kind: KindStats, Target: p}, true
		}
	case 2:
		p, ok1 := ParseMention(words[0])
		q, ok2 := ParseMention(words[1])
		if ok1 && ok2 {
			return Request{Kind: KindStats, Target: p, Versus: q}, true
		}
	}
	return Request{}, false
}

// parseAI reads what follows "ai": a level, or the people named, whom the
// AI does not play but the refusal names.
func parseAI(words []string) (Request, bool, error) {
	if ps, _ := leadingMentions(words); len(ps) > 0 {
		// The AI plays two people's games only: keep whom they named,
		// so that the refusal can say why.
		req := Request{Kind: KindAI}
		copy(req.Others[:], ps)
		return req, true, nil
	}
	return parseAIVariant(words)
}

// parseLevelled reads the optional level after a command of kind k; a bad
// level keeps the Kind, so that logs can name what was asked for.
func parseLevelled(k Kind, words []string) (Request, bool, error) {
	switch len(words) {
	case 0:
		return Request{Kind: k}, true, nil
	case 1:
		l, err := ParseLevel(words[0])
		if err != nil {
			return Request{Kind: k}, true, err
		}
		return Request{Kind: k, Level: l}, true, nil
	}
	return Request{}, false, nil
}

// parseChallenge reads the players named and the variant of a challenge.
func parseChallenge(words []string) (Request, bool, error) {
	ps, rest := leadingMentions(words)
	if len(ps) == 0 {
		return Request{}, false, nil
	}
	if len(ps) > 1+MaxOthers {
		return Request{}, true, userErr(ProblemTooManyPlayers, lang.Args{"Max": engine.MaxPlayers})
	}
	v, err := parseVariant(rest)
	if err != nil {
		return Request{}, true, err
	}
	req := Request{Kind: KindChallenge, Opponent: ps[0], Variant: v}
	copy(req.Others[:], ps[1:])
	return req, true, nil
}

// leadingMentions returns the players named by the mentions words start
// with, and the words after them.
func leadingMentions(words []string) ([]match.Player, []string) {
	var ps []match.Player
	for len(words) > 0 {
		p, ok := ParseMention(words[0])
		if !ok {
			break
		}
		ps, words = append(ps, p), words[1:]
	}
	return ps, words
}

// ParseLevel returns the AI level named s ("easy", "medium" or "hard", in
// any case), or a *UserError (ProblemBadLevel) naming it.
func ParseLevel(s string) (solver.Level, error) {
	l, err := solver.ParseLevel(s)
	if err != nil {
		return solver.LevelNone, userErr(ProblemBadLevel, lang.Args{"Level": strconv.Quote(strings.ToLower(s))})
	}
	return l, nil
}

// parseVariant reads "8x9", "connect 5", "first-to 3" (also "first to
// 3") and "first me|them|random" in any order. A value given as 0 is refused rather than taken as the
// default.
func parseVariant(words []string) (Variant, error) {
	var v Variant
	for i := 0; i < len(words); i++ {
		w := strings.ToLower(words[i])
		var field string
		var dst *int
		switch {
		case sizeWord.MatchString(w):
			// Columns first, as Connect Four is named: 7x6 is the
			// standard board of 7 columns and 6 rows.
			m := sizeWord.FindStringSubmatch(w)
			v.Cols, _ = strconv.Atoi(m[1])
			v.Rows, _ = strconv.Atoi(m[2])
			if v.Rows == 0 {
				return Variant{}, badVariant("rows", 0, engine.MinSize, engine.MaxSize)
			}
			if v.Cols == 0 {
				return Variant{}, badVariant("cols", 0, engine.MinSize, engine.MaxSize)
			}
			continue
		case w == "clock" || w == "days":
			if i+1 >= len(words) {
				return Variant{}, userErr(ProblemUsage, lang.Args{"Detail": phrase{"grammar.needsNumber", lang.Args{"Option": w}}})
			}
			v.Control = w + " " + words[i+1]
			i++
			continue
		case w == "connect" || w == "line":
			field, dst = "connect", &v.Connect
		case w == "first-to" || w == "first_to" || w == "firstto" || w == "ft":
			field, dst = "first-to", &v.FirstTo
		case w == "first" && i+1 < len(words) && starterWord(words[i+1]):
			v.First, _ = parseStarter(words[i+1])
			i++
			continue
		case w == "first" && i+1 < len(words) && strings.ToLower(words[i+1]) == "to":
			field, dst = "first-to", &v.FirstTo
			i++
		default:
			return Variant{}, userErr(ProblemUsage, lang.Args{"Detail": phrase{"grammar.unknownOption", lang.Args{"Option": strconv.Quote(words[i])}}})
		}
		i++
		if i >= len(words) {
			return Variant{}, userErr(ProblemUsage, lang.Args{"Detail": phrase{"grammar.needsNumber", lang.Args{"Option": field}}})
		}
		n, err := strconv.Atoi(words[i])
		if err != nil || n < 1 || n > 99 {
			if err != nil {
				return Variant{}, userErr(ProblemUsage, lang.Args{"Detail": phrase{"grammar.notANumber", lang.Args{"Value": strconv.Quote(words[i]), "Option": field}}})
			}
			lo, hi := engine.MinConnect, engine.MaxSize
			if field == "first-to" {
				lo, hi = 1, MaxFirstTo
			}
			return Variant{}, badVariant(field, n, lo, hi)
		}
		*dst = n
	}
	return v, nil
}

// parseSettings reads "board image|emoji", "palette
// standard|colourblind" and "language CODE|default", in any order, after
// "settings"; nothing after it asks to see the channel's settings.
func parseSettings(text string, words []string) (Request, error) {
	req := Request{Kind: KindSettings}
	if len(words)%2 != 0 {
		return Request{Kind: KindSettings}, userErr(ProblemUsage, lang.Args{"Detail": text})
	}
	for i := 0; i < len(words); i += 2 {
		switch strings.ToLower(words[i]) {
		case "board":
			b, err := match.ParseBoardStyle(words[i+1])
			if err != nil {
				return Request{Kind: KindSettings}, userErr(ProblemUsage, lang.Args{"Detail": phrase{"grammar.board", lang.Args{"Value": strconv.Quote(words[i+1])}}})
			}
			req.Settings.Board = b
		case "palette", "colours", "colors":
			p, err := match.ParsePalette(words[i+1])
			if err != nil {
				return Request{Kind: KindSettings}, userErr(ProblemUsage, lang.Args{"Detail": phrase{"grammar.palette", lang.Args{"Value": strconv.Quote(words[i+1])}}})
			}
			req.Settings.Palette = p
		case "language", "lang":
			code, err := parseLanguage(words[i+1])
			if err != nil {
				return Request{Kind: KindSettings}, err
			}
			req.Settings.Language = code
		default:
			return Request{Kind: KindSettings}, userErr(ProblemUsage, lang.Args{"Detail": text})
		}
	}
	return req, nil
}

// badVariant is the refusal of value n for field (an option as typed:
// rows, cols, connect, first-to), which takes lo to hi.
func badVariant(field string, n, lo, hi int) error {
	return userErr(ProblemBadVariant, lang.Args{"Field": field, "Value": n, "Min": lo, "Max": hi})
}

// parseLanguage reads the language of "settings language": a locale the
// bot speaks in any form lang.Parse reads ("de", "pt-BR", "de_DE", "ja-JP"),
// stored as its code, or "default" (also "none", "auto") to clear it;
// anything else is ProblemBadLanguage, listing the codes.
func parseLanguage(s string) (string, error) {
	switch strings.ToLower(s) {
	case match.LanguageDefault, "none", "auto":
		return match.LanguageDefault, nil
	}
	l, ok := lang.Parse(s)
	if !ok {
		return "", badLanguage(s)
	}
	return l.String(), nil
}
