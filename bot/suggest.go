package bot

import (
	"regexp"
	"strings"
)

// What a typed command that was not understood probably meant: one
// corrected command, said in one line instead of the whole help.
//
// Suggest corrects, word by word, what the grammar reads: a command or
// option word a typo or two away from one the bot knows ("resing",
// "conect", "first-too"), a board size written "7 by 6", "7 * 6", "7*6"
// or "7X6", and a player named without an @ ("challenge bob"), or named
// as one of the players the caller knows. The correction is offered
// only when it parses; words spelled out ("seven by six") are out of
// scope.

// commandWords are the words a command starts with that a typo may be
// corrected to: the canonical ones, not their short aliases ("bot",
// "top"), which a name is too easily one letter away from.
var commandWords = []string{
	"help", "accept", "decline", "cancel", "claim", "board", "leaderboard",
	"rematch", "reset", "seasons", "season", "takeback", "analyze", "resign",
	"stats", "settings", "puzzle", "open", "challenge",
}

// optionWords are the words that follow a command.
var optionWords = []string{
	"connect", "first-to", "easy", "medium", "hard", "match", "new",
	"board", "palette", "language", "image", "emoji", "standard", "colourblind", "default",
	"hint", "give",
}

// challengeWords start a challenge, after which bare names are players.
var challengeWords = map[string]bool{"challenge": true, "play": true, "vs": true}

var (
	bareName = regexp.MustCompile(`^@?[A-Za-z][A-Za-z0-9_.\-]{0,31}$`)
	number   = regexp.MustCompile(`^\d{1,2}$`)
	// sizeGlued is a size written in one word another way than 7x6.
	sizeGlued = regexp.MustCompile(`^(\d{1,2})(?:\*|by|X|×|,)(\d{1,2})$`)
	// sizeJoin are the words between two numbers that mean "by".
	sizeJoin = map[string]bool{"by": true, "x": true, "×": true, "*": true}
)

// Suggest returns the command text most probably meant by text, which
// ParseText refused, and true; or "", false when nothing close parses.
// known are names of players the caller knows in the channel (without
// the @): a word that is one of them, or a typo away from one, is taken
// for that player. In the result a player already named by a mention
// keeps its <@ID> form and one named by a bare word is written @name,
// as a person would type it.
func Suggest(text string, known []string) (string, bool) {
	words := joinSizes(strings.Fields(text))
	if len(words) == 0 {
		return "", false
	}
	if len(words) == 2 && strings.EqualFold(words[0], "stats") && isWord(strings.ToLower(words[1]), selfWords) {
		return "stats", true // stats alone is your own
	}
	shown := make([]string, len(words))  // as said to the person
	parsed := make([]string, len(words)) // as ParseText reads it
	for i, w := range words {
		shown[i], parsed[i] = correct(i, w, words, shown[:i], known)
	}
	// A challenge may be written without its keyword: "/connect4 @bob".
	if challengeWords[strings.ToLower(parsed[0])] && len(parsed) > 1 {
		if _, ok := ParseMention(parsed[1]); ok {
			shown, parsed = shown[1:], parsed[1:]
		}
	}
	out, in := strings.Join(shown, " "), strings.Join(parsed, " ")
	if in == strings.Join(strings.Fields(text), " ") {
		return bare(words)
	}
	if _, err := ParseText(in); err != nil {
		return bare(words)
	}
	return out, true
}

// bare returns the command of words alone, and true, when it takes
// nothing and what follows it was not understood: "resign now", "accept
// @bob".
func bare(words []string) (string, bool) {
	head := strings.ToLower(words[0])
	if len(words) < 2 || (simpleWords[head] == 0 && head != "resign") {
		return "", false
	}
	if head == "stats" {
		return "", false // stats takes players: see Suggest
	}
	return head, true
}

// selfWords are how people name themselves after stats.
var selfWords = []string{"me", "myself", "mine", "i"}

// correct returns word i of words as shown and as parsed after correction.
func correct(i int, w string, words, shownBefore, known []string) (shown, parsed string) {
	lower := strings.ToLower(w)
	switch {
	case w == "":
		return w, w
	case strings.HasPrefix(w, "<@"):
		return w, w
	case number.MatchString(w), sizeWord.MatchString(lower):
		return lower, lower
	}
	if i == 0 {
		if isWord(lower, commandWords) || simpleWords[lower] != 0 || lower == "ai" || lower == "bot" || challengeWords[lower] {
			return lower, lower
		}
		if k, ok := closest(lower, known); ok {
			return "@" + k, "<@" + k + ">"
		}
		if c, ok := closest(lower, commandWords); ok {
			return c, c
		}
		if strings.HasPrefix(w, "@") && bareName.MatchString(w) {
			n := strings.TrimPrefix(w, "@")
			return "@" + n, "<@" + n + ">"
		}
		return w, w
	}
	if isWord(lower, optionWords) {
		return lower, lower
	}
	// A name where a player is expected: after the players named first,
	// a known one anywhere a player may be; an unknown one only after a
	// word that asks for players ("challenge bob", "stats bob").
	head := strings.ToLower(words[0])
	if allPlayers(shownBefore[1:], known) || (strings.HasPrefix(words[0], "<@") || strings.HasPrefix(words[0], "@")) && allPlayers(shownBefore, known) {
		if k, ok := closest(strings.TrimPrefix(lower, "@"), known); ok {
			return "@" + k, "<@" + k + ">"
		}
		if challengeWords[head] || head == "stats" {
			if _, ok := closest(lower, optionWords); !ok && bareName.MatchString(w) {
				n := strings.TrimPrefix(w, "@")
				return "@" + n, "<@" + n + ">"
			}
		}
	}
	if c, ok := closest(lower, optionWords); ok {
		return c, c
	}
	return w, w
}

// allPlayers reports whether every word names a player (by mention, @name
// or a known name): the words before one that may be a player too.
func allPlayers(words, known []string) bool {
	for _, w := range words {
		if strings.HasPrefix(w, "<@") || strings.HasPrefix(w, "@") || isWord(strings.ToLower(w), known) {
			continue
		}
		return false
	}
	return true
}

// joinSizes writes every board size as one word COLSxROWS: "7 by 6",
// "7 * 6", "7*6", "7X6".
func joinSizes(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if m := sizeGlued.FindStringSubmatch(w); m != nil {
			out = append(out, m[1]+"x"+m[2])
			continue
		}
		if number.MatchString(w) && i+2 < len(words) && sizeJoin[strings.ToLower(words[i+1])] && number.MatchString(words[i+2]) {
			out = append(out, w+"x"+words[i+2])
			i += 2
			continue
		}
		out = append(out, w)
	}
	return out
}

func isWord(w string, list []string) bool {
	for _, c := range list {
		if strings.EqualFold(w, c) {
			return true
		}
	}
	return false
}

// closest returns the word of list nearest to w, if it is near enough: one
// edit for words of up to five letters, two for longer ones (a swap of
// two letters is one edit); of two as near, the first listed.
func closest(w string, list []string) (string, bool) {
	if len([]rune(w)) < 3 {
		return "", false
	}
	limit := 1
	if len([]rune(w)) > 5 {
		limit = 2
	}
	best, bestD := "", limit+1
	for _, c := range list {
		if d := editDistance(w, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best, best != ""
}

// editDistance is the optimal string alignment distance between a and b,
// by runes: insertions, deletions, substitutions and swaps of two
// neighbours each cost one.
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}
