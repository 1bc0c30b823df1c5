package pairing

// card is what the pairing rules need to know of one player's past: the
// score, the colour of each round (+1 White, -1 Black, 0 none), the
// opponents met and whether they had a bye.
type card struct {
	score  Points
	colour []int8 // by round
	diff   int    // games as White minus games as Black
	met    uint64 // bit q: has met player q
	bye    bool
}

// cards checks history against n players and returns each player's card.
// It returns an *Error: ReasonHistory for a player out of range or twice
// in a round, ReasonUnfinished for a game without a result when finished
// is set.
func cards(n int, history []Round, byePoints Points, finished bool) ([]card, error) {
	cs := make([]card, n)
	for i := range cs {
		cs[i].colour = make([]int8, len(history))
	}
	for r, rd := range history {
		var seen uint64
		use := func(p int) error {
			if p < 0 || p >= n {
				return errorf(ReasonHistory, "round %d: player %d out of range 0..%d", r+1, p, n-1)
			}
			if seen&(1<<uint(p)) != 0 {
				return errorf(ReasonHistory, "round %d: player %d appears twice", r+1, p)
			}
			seen |= 1 << uint(p)
			return nil
		}
		if rd.Bye != NoBye {
			if err := use(rd.Bye); err != nil {
				return nil, err
			}
			cs[rd.Bye].bye = true
			cs[rd.Bye].score += byePoints
		}
		for _, g := range rd.Pairs {
			if err := use(g.White); err != nil {
				return nil, err
			}
			if err := use(g.Black); err != nil {
				return nil, err
			}
			if !g.Result.Valid() {
				return nil, errorf(ReasonHistory, "round %d: unknown result %v", r+1, g.Result)
			}
			if finished && g.Result == NoResult {
				return nil, errorf(ReasonUnfinished, "round %d: %d-%d has no result", r+1, g.White, g.Black)
			}
			w, b := &cs[g.White], &cs[g.Black]
			w.colour[r], b.colour[r] = 1, -1
			w.diff++
			b.diff--
			w.met |= 1 << uint(g.Black)
			b.met |= 1 << uint(g.White)
			pw, _ := g.Points(g.White)
			pb, _ := g.Points(g.Black)
			w.score += pw
			b.score += pb
		}
	}
	return cs, nil
}

// last returns the colours of the player's last two games (0 for none),
// the latest first.
func (c *card) last() (a, b int8) {
	for i := len(c.colour) - 1; i >= 0; i-- {
		if c.colour[i] == 0 {
			continue
		}
		if a == 0 {
			a = c.colour[i]
		} else {
			return a, c.colour[i]
		}
	}
	return a, b
}

// preference returns the colour the player should have next (+1 White,
// -1 Black, 0 either) and how strongly, as the Dutch system grades it: 3
// absolute (a colour difference beyond 1, or the same colour twice in a
// row), 2 strong (a difference of 1), 1 mild (balanced: the other colour
// than last time), 0 none (no game yet).
func (c *card) preference() (want int8, strength int) {
	a, b := c.last()
	switch {
	case c.diff < -1 || (a == -1 && b == -1):
		return 1, 3
	case c.diff > 1 || (a == 1 && b == 1):
		return -1, 3
	case c.diff == -1:
		return 1, 2
	case c.diff == 1:
		return -1, 2
	case a != 0:
		return -a, 1
	}
	return 0, 0
}

// mayHave reports whether the player may take colour c (+1 or -1) under
// the rules of level: from levelColours down the colour difference stays
// within 2, at levelAll (everything allowed) it may not; at levelStrict no
// player has the same colour three times in a row either.
func (c *card) mayHave(col int8, lv level) bool {
	if lv >= levelAll {
		return true
	}
	if d := c.diff + int(col); d > 2 || d < -2 {
		return false
	}
	if lv == levelStrict {
		if a, b := c.last(); a == col && b == col {
			return false
		}
	}
	return true
}
