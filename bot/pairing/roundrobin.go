package pairing

// The number of players the pairing functions accept. MaxPlayers keeps
// the Swiss search's sets of players in one 64-bit word.
const (
	MinPlayers = 2
	MaxPlayers = 64
)

// RoundRobinRounds returns the number of rounds of a round robin of n
// players: n-1 for an even n, n for an odd one (each player sits one
// round out), twice that when double.
func RoundRobinRounds(n int, double bool) int {
	r := n - 1
	if n%2 == 1 {
		r = n
	}
	if double {
		r *= 2
	}
	return r
}

// RoundRobin returns every round of a round robin of n players by the
// Berger tables: every pair meets once (twice when double, the second
// cycle with colours swapped), and every player's colours alternate but
// for one repeat at most per cycle, so that after each cycle no player has
// had more than one game more with either colour. With an odd n each
// player sits one round out (Round.Bye) once per cycle. It returns an
// *Error (ReasonPlayers) when n is out of range.
//
// The tables are the circle method with the Berger step: the last player
// (or, for an odd n, the empty seat) stays put and alternates colours;
// the others sit on a circle of m = N-1 seats that turns by N/2 seats a
// round. A player on seat d of the circle (counted from the seat facing
// the fixed one) is White for d in 1..m/2 and Black beyond, and N/2 steps
// carry every seat from one half to the other.
func RoundRobin(n int, double bool) ([]Round, error) {
	if n < MinPlayers || n > MaxPlayers {
		return nil, errorf(ReasonPlayers, "%d players, want %d to %d", n, MinPlayers, MaxPlayers)
	}
	seats := n + n%2 // N: an odd field gets an empty seat, the bye
	m := seats - 1
	fixed := seats - 1
	player := func(i int) int { // an empty seat is the bye
		if i >= n {
			return NoBye
		}
		return i
	}
	rounds := make([]Round, 0, RoundRobinRounds(n, double))
	for r := range m {
		s := r * (seats / 2) % m // the circle's turn this round
		rd := Round{Bye: NoBye}
		// Board 1: the fixed seat against the player on seat 0.
		a, b := player(s), player(fixed)
		if r%2 == 1 {
			a, b = b, a
		}
		rd.add(a, b)
		for i := 1; i <= m/2; i++ {
			rd.add(player((s+i)%m), player((s-i+m)%m))
		}
		rounds = append(rounds, rd)
	}
	if double {
		for r := range m {
			rd := Round{Bye: rounds[r].Bye, Pairs: make([]Pair, len(rounds[r].Pairs))}
			for i, p := range rounds[r].Pairs {
				rd.Pairs[i] = Pair{White: p.Black, Black: p.White}
			}
			rounds = append(rounds, rd)
		}
	}
	return rounds, nil
}

// add adds the game white-black, or the bye when either is the empty seat.
func (r *Round) add(white, black int) {
	switch {
	case white == NoBye:
		r.Bye = black
	case black == NoBye:
		r.Bye = white
	default:
		r.Pairs = append(r.Pairs, Pair{White: white, Black: black})
	}
}
