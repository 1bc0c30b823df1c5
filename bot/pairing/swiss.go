package pairing

import (
	"cmp"
	"slices"
)

// SwissByePoints is what a bye scores in a Swiss tournament: one point.
const SwissByePoints Points = 2

// level is how much a Swiss search may give up, tried in order: the
// first level with a pairing wins.
type level uint8

const (
	// levelStrict: no repeat pairing, colour difference within 2, never
	// the same colour three times in a row.
	levelStrict level = iota
	// levelBalanced: no repeat pairing, colour difference within 2.
	levelBalanced
	// levelRepeats: colour difference within 2; players may meet again.
	levelRepeats
	// levelAll: any pairing.
	levelAll
)

// searchBudget bounds the nodes all the searches of one pairing visit
// below levelAll, so that a field where a level has no pairing (proved
// only by trying them all) ends in bounded time whatever its size or
// history: past the budget only levelAll is tried, which pairs any field
// without going back. Fields of up to 16 players never reach it (the
// property test would see its pairings fall short).
const searchBudget = 50_000

// Swiss returns the pairing of the next round of a Swiss tournament of n
// players (0 the top seed) after the rounds in history, leaving out the
// withdrawn players. It follows the Dutch system's rules that matter here:
//
//   - players are ranked by score, then by seed; each score group is
//     split into halves and the top half meets the bottom half in order
//     (1 against k/2+1, ...), a player left over floats down to the next
//     group, and an opponent whose colour preference clashes is passed
//     over for the next one when that one fits;
//   - no player's colour difference (games as White minus as Black) goes
//     beyond 2 while any pairing allows it (in fields of 3 to 16 players,
//     tested, always); within that rule no two players meet twice while a
//     pairing without a repeat exists (late in a Swiss of nearly as many
//     rounds as players, the only pairings left without a repeat may break
//     the colour rule: the colour rule wins), and no player gets the same
//     colour three times in a row unless the field leaves no other way;
//   - with an odd number of players, the lowest-ranked player who has
//     not had one gets a bye (worth SwissByePoints), never a second one
//     (unless withdrawals left only players who had one: then the
//     lowest-ranked);
//   - colours follow the preferences: a player's stronger need wins, then
//     the colours alternate from the last round the two differed, then the
//     higher-ranked player's; in the first round the top half alternates
//     White, Black, White... board by board.
//
// Pairs come board 1 first (the highest score). It returns an *Error:
// ReasonPlayers for n out of range or fewer than 2 players left,
// ReasonHistory for an invalid history or withdrawn list, ReasonUnfinished
// when a game of history has no result, ReasonRounds when history already
// holds n-1 rounds.
func Swiss(n int, history []Round, withdrawn []int) (Round, error) {
	if n < MinPlayers || n > MaxPlayers {
		return Round{}, errorf(ReasonPlayers, "%d players, want %d to %d", n, MinPlayers, MaxPlayers)
	}
	if len(history) >= n-1 {
		return Round{}, errorf(ReasonRounds, "round %d of a Swiss of %d players: at most %d rounds", len(history)+1, n, n-1)
	}
	cs, err := cards(n, history, SwissByePoints, true)
	if err != nil {
		return Round{}, err
	}
	out := make([]bool, n)
	for _, p := range withdrawn {
		if p < 0 || p >= n {
			return Round{}, errorf(ReasonHistory, "withdrawn player %d out of range 0..%d", p, n-1)
		}
		out[p] = true
	}
	ranked := make([]int, 0, n)
	for p := range n {
		if !out[p] {
			ranked = append(ranked, p)
		}
	}
	if len(ranked) < MinPlayers {
		return Round{}, errorf(ReasonPlayers, "%d players left, want at least %d", len(ranked), MinPlayers)
	}
	slices.SortStableFunc(ranked, func(a, b int) int { return cmp.Compare(cs[b].score, cs[a].score) })
	rank := make([]int, n)
	for i, p := range ranked {
		rank[p] = i
	}
	s := &search{cards: cs, ranked: ranked, rank: rank}
	var all uint64
	for _, p := range ranked {
		all |= 1 << uint(p)
	}
	for lv := levelStrict; lv <= levelAll; lv++ {
		s.level = lv
		if len(ranked)%2 == 0 {
			if pairs, ok := s.run(all); ok {
				return s.round(pairs, NoBye), nil
			}
			continue
		}
		for i := len(ranked) - 1; i >= 0; i-- { // the bye: lowest-ranked first
			b := ranked[i]
			if cs[b].bye {
				continue
			}
			if pairs, ok := s.run(all &^ (1 << uint(b))); ok {
				return s.round(pairs, b), nil
			}
		}
	}
	// Every player left has had a bye (only when many withdrew: with
	// fewer rounds than players someone has had none): the lowest-ranked
	// sits out again, and levelAll pairs the rest.
	b := ranked[len(ranked)-1]
	pairs, _ := s.run(all &^ (1 << uint(b)))
	return s.round(pairs, b), nil
}

// search is one Swiss pairing search: a depth-first search that pairs the
// highest-ranked unpaired player with each candidate in the Dutch order
// of preference, remembering the sets of players proved unpairable.
type search struct {
	cards  []card
	ranked []int // players in pairing order
	rank   []int // player → position in ranked
	level  level

	failed map[uint64]bool
	nodes  int      // over every run of the pairing
	pairs  [][2]int // the pairs so far, higher-ranked first
}

// run pairs every player of set, or reports false.
func (s *search) run(set uint64) ([][2]int, bool) {
	s.failed, s.pairs = map[uint64]bool{}, s.pairs[:0]
	if !s.pair(set) {
		return nil, false
	}
	return slices.Clone(s.pairs), true
}

// pair pairs every player of set, appending to s.pairs.
func (s *search) pair(set uint64) bool {
	if set == 0 {
		return true
	}
	if s.failed[set] || s.nodes >= searchBudget && s.level < levelAll {
		return false
	}
	s.nodes++
	var rest []int
	for _, p := range s.ranked {
		if set&(1<<uint(p)) != 0 {
			rest = append(rest, p)
		}
	}
	p, rest := rest[0], rest[1:]
	for _, q := range s.candidates(p, rest) {
		if !s.allowed(p, q) {
			continue
		}
		s.pairs = append(s.pairs, [2]int{p, q})
		if s.pair(set &^ (1<<uint(p) | 1<<uint(q))) {
			return true
		}
		s.pairs = s.pairs[:len(s.pairs)-1]
	}
	s.failed[set] = true
	return false
}

// candidates returns the opponents for p, the highest-ranked unpaired
// player, among rest (in rank order), best first: p's score group in the
// Dutch order (the player half the group below p, then down the bottom
// half, then up the top half), then the lower groups in rank order; within
// each group, those whose colour preference clashes with p's go last.
func (s *search) candidates(p int, rest []int) []int {
	k := 1 // p's group, p included
	for k-1 < len(rest) && s.cards[rest[k-1]].score == s.cards[p].score {
		k++
	}
	h := k / 2
	type cand struct {
		q, tier, clash, pos int
	}
	cs := make([]cand, len(rest))
	want, _ := s.cards[p].preference()
	for i, q := range rest {
		c := cand{q: q, pos: i}
		if g := i + 1; g < k { // position g in p's group
			if g >= h {
				c.pos = g - h
			} else {
				c.pos = k - h + (h - g)
			}
		} else {
			c.tier = int(s.cards[p].score - s.cards[q].score)
		}
		if w, _ := s.cards[q].preference(); w != 0 && w == want {
			c.clash = 1
		}
		cs[i] = c
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.tier, b.tier), cmp.Compare(a.clash, b.clash), cmp.Compare(a.pos, b.pos))
	})
	qs := make([]int, len(cs))
	for i, c := range cs {
		qs[i] = c.q
	}
	return qs
}

// allowed reports whether p and q may meet at the search's level.
func (s *search) allowed(p, q int) bool {
	a, b := &s.cards[p], &s.cards[q]
	if s.level < levelRepeats && a.met&(1<<uint(q)) != 0 {
		return false
	}
	return a.mayHave(1, s.level) && b.mayHave(-1, s.level) || a.mayHave(-1, s.level) && b.mayHave(1, s.level)
}

// round orders pairs into boards (the higher score first, then the
// higher rank) and gives each its colours.
func (s *search) round(pairs [][2]int, bye int) Round {
	slices.SortFunc(pairs, func(x, y [2]int) int {
		return cmp.Or(
			cmp.Compare(max(s.cards[y[0]].score, s.cards[y[1]].score), max(s.cards[x[0]].score, s.cards[x[1]].score)),
			cmp.Compare(min(s.rank[x[0]], s.rank[x[1]]), min(s.rank[y[0]], s.rank[y[1]])))
	})
	r := Round{Bye: bye, Pairs: make([]Pair, len(pairs))}
	for i, pq := range pairs {
		p, q := pq[0], pq[1]
		if s.rank[q] < s.rank[p] {
			p, q = q, p
		}
		if s.colour(p, q, i) == 1 {
			r.Pairs[i] = Pair{White: p, Black: q}
		} else {
			r.Pairs[i] = Pair{White: q, Black: p}
		}
	}
	return r
}

// colour returns the colour of p, the higher-ranked of p and q, on board
// (0-based).
func (s *search) colour(p, q, board int) int8 {
	a, b := &s.cards[p], &s.cards[q]
	white := a.mayHave(1, s.level) && b.mayHave(-1, s.level)
	black := a.mayHave(-1, s.level) && b.mayHave(1, s.level)
	switch {
	case white && !black:
		return 1
	case black && !white:
		return -1
	}
	wa, sa := a.preference()
	wb, sb := b.preference()
	switch {
	case wa == 0 && wb == 0:
		if board%2 == 0 {
			return 1
		}
		return -1
	case wa == 0:
		return -wb
	case wb == 0 || wa != wb:
		return wa
	case sa != sb: // both want the same colour: the stronger need wins
		if sa > sb {
			return wa
		}
		return -wb
	}
	for r := len(a.colour) - 1; r >= 0; r-- { // alternate from the last round they differed
		if ca, cb := a.colour[r], b.colour[r]; ca != 0 && cb != 0 && ca != cb {
			return -ca
		}
	}
	return wa
}
