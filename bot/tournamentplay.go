package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/engine"
)

// Tournaments in a channel, one at a time. A manager of the channel opens
// one (/connect4 tournament new swiss ...); players join with the button
// on its message or /connect4 tournament join; the organiser starts it,
// which pairs round 1 and creates its games, already accepted, under the
// ids the tournament derives (tournament.GameID), so that creating one
// twice changes nothing. When a game of the current round ends (any way:
// on the board, resigned, on time, a draw agreed) tournamentOver records
// its result and asks the store to advance the round: of replicas racing,
// only the one the store tells it advanced creates the next round's games
// and announces them, or the final table.

// tournaments returns the store's tournaments, or an error when the
// store keeps none.
func (s *Service) tournaments() (TournamentStore, error) {
	ts, ok := s.raw.(TournamentStore)
	if !ok {
		return nil, errors.New("bot: the store keeps no tournaments")
	}
	return ts, nil
}

// tournament carries out the tournament commands.
func (s *Service) tournament(ctx context.Context, cmd Command) (Reply, error) {
	ts, err := s.tournaments()
	if err != nil {
		return Reply{}, err
	}
	if cmd.Kind == KindTournamentNew {
		return s.tournamentNew(ctx, ts, cmd)
	}
	if cmd.Kind == KindTournament && cmd.Tournament.History {
		return s.tournamentHistory(ctx, ts, cmd)
	}
	t, err := ts.Tournament(ctx, cmd.Key)
	if errors.Is(err, tournament.ErrNotFound) || (err == nil && cmd.Kind != KindTournament && t.Status.Over()) {
		return Reply{}, &UserError{Problem: ProblemNoGame, ID: "tournament.problem.none"}
	}
	if err != nil {
		return Reply{}, err
	}
	if cmd.FromButton() && cmd.GameID != t.ID {
		return Reply{}, &UserError{Problem: ProblemStale, ID: "tournament.problem.stale"} // an earlier tournament's message
	}
	l := s.channelLang(ctx, cmd, nil)
	now := s.opt.Now()
	var text speech
	var resign bool
	var seeds func(id string) float64
	if cmd.Kind == KindTournamentStart {
		seeds = s.seeds(ctx, cmd.Key)
	}
	prevMessage := t.Message
	change := func(t *tournament.Tournament) error {
		resign = false
		if cmd.FromButton() && !cmd.Message.IsZero() {
			t.Message = cmd.Message // the table's message is the one clicked: its reply replaces it
		}
		switch cmd.Kind {
		case KindTournamentJoin:
			text = words("tournament.joined", lang.Args{"Player": mention(cmd.User)})
			return t.Join(cmd.User)
		case KindTournamentStart:
			text = nil
			return t.Start(cmd.User.ID, seeds, now)
		case KindTournamentWithdraw:
			_, resign = t.Playing(cmd.User.ID)
			text = words("tournament.withdrawn", lang.Args{"Player": mention(cmd.User)})
			return t.Withdraw(cmd.User.ID)
		case KindTournamentCancel:
			text = words("tournament.cancelled", lang.Args{"Player": mention(cmd.User)})
			return t.Cancel(cmd.User.ID, now)
		}
		if cmd.FromButton() && t.Message != prevMessage {
			return nil // a refresh clicked on a table message the store did not know
		}
		return match.ErrNoChange
	}
	if cmd.Kind != KindTournament || cmd.FromButton() {
		prev := t
		if t, err = ts.UpdateTournament(ctx, cmd.Key, t.ID, change); err != nil {
			if cmd.Kind == KindTournamentStart && tournament.ReasonOf(err) == tournament.ReasonRounds {
				// The rounds were fixed when it opened: only more players help.
				return Reply{}, &UserError{Problem: ProblemNotStarted, ID: "tournament.problem.startRounds",
					Args: lang.Args{"Count": prev.Options.Rounds + 1}}
			}
			return Reply{}, tournamentProblem(err)
		}
	}
	vis := Public
	if cmd.FromButton() {
		vis = Update
	}
	if cmd.Kind == KindTournamentStart {
		r := s.roundReply(ctx, l, t)
		r.Visibility = Public
		return r, nil
	}
	if resign {
		if _, err := s.end(ctx, Command{Key: cmd.Key, User: cmd.User, Self: cmd.Self, Locale: cmd.Locale,
			ChannelLocale: cmd.ChannelLocale, Request: Request{Kind: KindResign}}); err != nil {
			s.log.Warn("withdrawn player's game not resigned", "channel", cmd.Key.String(), "err", err)
		}
		text = text.line(words("tournament.withdrawnResigned", lang.Args{"Player": mention(cmd.User)}))
	}
	var made []*match.Record
	if cmd.Kind == KindTournament && t.Status == tournament.Running {
		_, made = s.ensureRound(ctx, l, t) // a game that could not start before (a player was busy) starts now
		s.scheduleTournament(ctx, t)       // the round's limit again, should the replica that began the round have died first
	}
	r := Reply{Posts: gameMessages(l, t, made), Visibility: vis, Lang: l, Text: strings.TrimSpace(text.in(l) + "\n\n" + tableText(l, t)), Buttons: tableButtons(l, t)}
	if r.Visibility == Update && t.Status.Over() {
		r.Buttons = nil
	}
	if !cmd.FromButton() && !t.Message.IsZero() && cmd.Kind != KindTournament {
		// The table's own message follows what the command changed.
		r.Edits = append(r.Edits, Edit{Message: t.Message, Reply: tableView(l, t)})
	}
	if cmd.Kind == KindTournamentCancel {
		r.Edits = append(r.Edits, s.endCancelled(ctx, l, t)...)
	}
	if !cmd.FromButton() && !t.Message.IsZero() {
		// The table's own message keeps the buttons: a reply with them
		// would become the table (adapters attach a message by its
		// buttons' id).
		r.Buttons = nil
	}
	return r, nil
}

// tableButtons are the buttons of t's table: Join while it takes players,
// a refresh of the table while it runs, none once it is over. Each
// carries t's id, which lets an adapter attach the message it posts them
// on to the tournament (see Attach).
func tableButtons(l lang.Lang, t *tournament.Tournament) []Button {
	switch t.Status {
	case tournament.Joining:
		return []Button{{Label: l.Say("button.tournament.join", nil), Style: StylePrimary,
			Value: Action{Kind: KindTournamentJoin, GameID: t.ID}.String()}}
	case tournament.Running:
		return []Button{{Label: l.Say("button.tournament.standings", nil),
			Value: Action{Kind: KindTournament, GameID: t.ID}.String()}}
	}
	return nil
}

// tableView is t's own message, the one edited in place: who opened it and
// how, then its table (see tableText) and buttons.
func tableView(l lang.Lang, t *tournament.Tournament) Reply {
	args := lang.Args{"Organiser": mention(t.Organiser), "Format": formatPhrase(t.Options).in(l)}
	text := l.Say("tournament.heading", args) // started or over: nobody may join
	if t.Status == tournament.Joining {
		text = l.Say("tournament.opened", args)
	}
	if t.Options.RoundLimit > 0 {
		text += "\n" + l.Say("tournament.roundLimit", lang.Args{"Limit": duration(t.Options.RoundLimit).in(l)})
	}
	if t.Status == tournament.Joining && !t.Options.StartAt.IsZero() {
		text += "\n" + l.Say("tournament.startsAt", lang.Args{"When": t.Options.StartAt.UTC().Format("2006-01-02 15:04")})
	}
	return Reply{Visibility: Update, Lang: l, Text: text + "\n\n" + tableText(l, t), Buttons: tableButtons(l, t)}
}

// tournamentNew opens a tournament in cmd's channel.
func (s *Service) tournamentNew(ctx context.Context, ts TournamentStore, cmd Command) (Reply, error) {
	if !cmd.CanManage {
		return Reply{}, &UserError{Problem: ProblemNotManager, ID: "tournament.problem.manager"}
	}
	ctl, err := checkControl(cmd.Variant.Control, 0, false)
	if err != nil {
		return Reply{}, err
	}
	if err := s.checkKeep(ctl); err != nil {
		return Reply{}, err
	}
	v := cmd.Variant.withDefaults()
	if err := v.validate(); err != nil {
		return Reply{}, err
	}
	ask := cmd.Tournament
	if ask.RoundText != "" {
		if err := ask.SetRoundLimit(ask.RoundText); err != nil {
			return Reply{}, err
		}
	}
	if ask.StartText != "" {
		if err := ask.SetStart(ask.StartText); err != nil {
			return Reply{}, err
		}
	}
	now := s.opt.Now()
	opt := tournament.Options{Format: cmd.Tournament.Format, Double: cmd.Tournament.Double, Rounds: cmd.Tournament.Rounds,
		Clock: ctl, Board: engine.Config{Rows: v.Rows, Cols: v.Cols, Connect: v.Connect},
		RoundLimit: ask.RoundLimit, StartAt: ask.startAt(now)}
	id := "t" + strconv.FormatInt(now.UnixMilli(), 36)
	t, err := tournament.New(id, cmd.Key, cmd.User, opt, now)
	if err != nil {
		return Reply{}, tournamentProblem(err)
	}
	// The start is scheduled before the tournament is stored: an entry
	// left by a failed create fires stale (another id, or none) and does
	// nothing, while a tournament without its entry would never start.
	if !s.scheduleTournament(ctx, t) {
		return Reply{}, errors.New("bot: tournament start not scheduled")
	}
	if err := ts.CreateTournament(ctx, t); err != nil {
		return Reply{}, tournamentProblem(err)
	}
	r := tableView(s.channelLang(ctx, cmd, nil), t)
	r.Visibility = Public
	return r, nil
}

// formatPhrase names a tournament's format, rounds and time control.
func formatPhrase(o tournament.Options) phrase {
	var ctl any = phrase{"tournament.format.noClock", nil}
	if o.Clock.Kind != clock.None {
		ctl = o.Clock.String()
	}
	args := lang.Args{"Rounds": o.Rounds, "Clock": ctl, "Board": fmt.Sprintf("%dx%d", o.Board.Cols, o.Board.Rows), "Connect": o.Board.Connect}
	switch {
	case o.Format == tournament.Swiss:
		return phrase{"tournament.format.swiss", args}
	case o.Double:
		return phrase{"tournament.format.double", args}
	}
	return phrase{"tournament.format.roundRobin", args}
}

// tableText is t's table: the players who joined while it takes players,
// the standings once it runs.
func tableText(l lang.Lang, t *tournament.Tournament) string {
	var b strings.Builder
	switch t.Status {
	case tournament.Joining:
		if len(t.Players) == 0 {
			return l.Say("tournament.entrantsNone", nil)
		}
		names := make([]string, len(t.Players))
		for i, p := range t.Players {
			names[i] = mention(p.Player)
		}
		b.WriteString(l.Say("tournament.entrants", lang.Args{"Count": len(t.Players), "Players": strings.Join(names, ", ")}))
		return b.String()
	case tournament.Finished:
		b.WriteString(l.Say("tournament.final", nil))
	case tournament.Cancelled:
		return l.Say("tournament.over", nil)
	default:
		b.WriteString(l.Say("tournament.standings", lang.Args{"Round": t.Round(), "Rounds": t.Planned}))
	}
	st, err := t.Standings()
	if err != nil {
		return b.String()
	}
	for _, x := range st {
		p := t.Players[x.Player]
		id := "tournament.line"
		if p.Withdrawn {
			id = "tournament.lineWithdrawn"
		}
		b.WriteString("\n" + l.Say(id, lineArgs(x.Rank, p.Player, x.Score, x.Buchholz, x.SonnebornBerger)))
	}
	return b.String()
}

// lineArgs are the arguments of a table's line (tournament.line,
// tournament.lineWithdrawn).
func lineArgs(rank int, player match.Player, score pairing.Points, buchholz, sb float64) lang.Args {
	return lang.Args{"Rank": rank, "Player": mention(player), "Score": points(score),
		"Buchholz": quarters(buchholz), "SB": quarters(sb)}
}

// quarters writes a tiebreak, a sum of scores in quarter points at the
// finest (Sonneborn-Berger halves a drawn opponent's halves), as the
// scores are written: 2½, 1¾, ¼, 0.
func quarters(f float64) string {
	n := int(math.Round(f * 4))
	frac := [...]string{"", "¼", "½", "¾"}[n%4]
	if n/4 == 0 && frac != "" {
		return frac
	}
	return strconv.Itoa(n/4) + frac
}

// points writes half points as 2½.
func points(p pairing.Points) string {
	s := strconv.Itoa(int(p) / 2)
	if p%2 == 1 {
		if p == 1 {
			return "½"
		}
		s += "½"
	}
	return s
}

// roundReply is what the start of t's current round says: its pairings
// (Text), each game it creates (see ensureRound) on a message of its own
// (Posts), and the table on t's own message, edited in place or posted
// anew when that message is gone (Edits). Once t is over, the final table,
// in both places.
func (s *Service) roundReply(ctx context.Context, l lang.Lang, t *tournament.Tournament) Reply {
	table := Edit{Message: t.Message, Reply: tableView(l, t), Repost: true}
	if t.Status != tournament.Running {
		return Reply{Text: tableText(l, t), Lang: l, Edits: []Edit{table}}
	}
	busy, made := s.ensureRound(ctx, l, t)
	s.scheduleTournament(ctx, t)
	r := t.Rounds[len(t.Rounds)-1]
	var b strings.Builder
	b.WriteString(l.Say("tournament.round", lang.Args{"Round": t.Round(), "Rounds": t.Planned}))
	for i, g := range r.Games {
		w, k := t.Players[g.White].Player, t.Players[g.Black].Player
		id := "tournament.pairing"
		switch {
		case g.GameID == "":
			id = "tournament.pairingForfeit"
		case busy[g.GameID]:
			id = "tournament.pairingBusy"
		}
		b.WriteString("\n" + l.Say(id, lang.Args{"Board": i + 1, "Red": mention(w), "Yellow": mention(k)}))
	}
	if r.Bye != pairing.NoBye {
		b.WriteString("\n" + byeLine(l, t, r.Bye))
	}
	return Reply{Text: b.String(), Lang: l, Edits: []Edit{table}, Posts: gameMessages(l, t, made)}
}

// byeLine says that player i of t sits the current round out: for a
// point in a Swiss, for nothing in a round robin (where, with an odd
// number of players, everyone sits out in turn).
func byeLine(l lang.Lang, t *tournament.Tournament, i int) string {
	who := mention(t.Players[i].Player)
	if p := t.ByePoints(); p > 0 {
		return l.Say("tournament.bye", lang.Args{"Player": who, "Points": points(p)})
	}
	return l.Say("tournament.byeRoundRobin", lang.Args{"Player": who})
}

// gameMessages are the messages of the games of t's current round in
// made, each a board with its buttons like any game's, pinging its two
// players.
func gameMessages(l lang.Lang, t *tournament.Tournament, made []*match.Record) []Reply {
	var posts []Reply
	if len(made) == 0 {
		return nil
	}
	for i, g := range t.Rounds[len(t.Rounds)-1].Games {
		for _, rec := range made {
			if rec.ID != g.GameID || g.GameID == "" {
				continue
			}
			v := gameView(l, rec, Public, l.Say("tournament.pairing", lang.Args{"Board": i + 1, "Red": mention(rec.Challenger), "Yellow": mention(rec.Opponent)}))
			v.Notify = []string{rec.Challenger.ID, rec.Opponent.ID}
			posts = append(posts, v)
		}
	}
	return posts
}

// ensureRound creates the games of t's current round that have no record
// yet: already accepted, White moving first, under the tournament's clock
// and board and the id it derives. A record there already is left alone,
// so any caller may run it again. It returns the games that could not
// start because a player is in another game of the channel, and the
// records it created.
func (s *Service) ensureRound(ctx context.Context, l lang.Lang, t *tournament.Tournament) (busy map[string]bool, made []*match.Record) {
	busy = map[string]bool{}
	if t.Round() == 0 {
		return busy, nil
	}
	// The games are the tournament's writes, not the command's: the
	// command's nonce, spent by its own write, would refuse them as a
	// replay. Their ids make them idempotent instead.
	ctx = match.WithNonce(ctx, "")
	for _, g := range t.Rounds[len(t.Rounds)-1].Games {
		if g.GameID == "" || g.Result != pairing.NoResult {
			continue
		}
		if _, err := s.raw.Load(ctx, t.Key, g.GameID); err == nil {
			continue
		}
		e, err := engine.New(t.Options.Board)
		if err != nil {
			s.log.Error("tournament game not created", "channel", t.Key.String(), "err", err)
			continue
		}
		w, k := t.Players[g.White].Player, t.Players[g.Black].Player
		rec := &match.Record{ID: g.GameID, Key: t.Key, Status: match.StatusPlaying, Challenger: w, Opponent: k,
			RedID: w.ID, Game: e, FirstTo: 1, Lang: l.String(), Clock: clock.Clock{Control: t.Options.Clock}}
		err = s.store.Create(ctx, rec)
		var be *match.BusyError
		switch {
		case err == nil:
			s.started(Command{Key: t.Key}, false)
			made = append(made, rec)
		case errors.As(err, &be):
			busy[g.GameID] = true
		default:
			if _, lerr := s.raw.Load(ctx, t.Key, g.GameID); lerr != nil { // another replica made it
				s.log.Error("tournament game not created", "channel", t.Key.String(), "game", g.GameID, "err", err)
			}
		}
	}
	return busy, made
}

// tournamentGameID matches the ids tournament.GameID derives.
var tournamentGameID = regexp.MustCompile(`^t[0-9a-z]+-[0-9]+-[0-9]+$`)

// tournamentOver records the result of rec, a game that has just ended,
// in its channel's tournament when it is one of the current round's, and
// advances the round once it is complete. It returns what to announce:
// the next round or the final table (see roundReply), said only by the
// caller the store let advance; the zero Reply otherwise.
func (s *Service) tournamentOver(ctx context.Context, rec *match.Record) Reply {
	if rec == nil || rec.Status != match.StatusFinished || !tournamentGameID.MatchString(rec.ID) {
		return Reply{}
	}
	ts, err := s.tournaments()
	if err != nil {
		return Reply{}
	}
	t, err := ts.Tournament(ctx, rec.Key)
	if err != nil || t.Status != tournament.Running || !strings.HasPrefix(rec.ID, t.ID+"-") {
		return Reply{}
	}
	winner := ""
	if n := len(rec.Rounds); n > 0 {
		winner = rec.Rounds[n-1].Winner
	}
	return s.tournamentResult(ctx, ts, t, s.timedLang(ctx, rec), rec.ID, winner)
}

// tournamentResult records winner ("" for a draw) as the result of the
// current round's game id of t, and advances the round once it is
// complete: see tournamentOver.
func (s *Service) tournamentResult(ctx context.Context, ts TournamentStore, t *tournament.Tournament, l lang.Lang, id, winner string) Reply {
	k := t.Key
	t, err := ts.UpdateTournament(ctx, k, t.ID, func(t *tournament.Tournament) error {
		err := t.RecordWinner(id, winner)
		if tournament.ReasonOf(err) == tournament.ReasonResultKnown {
			return match.ErrNoChange // recorded before: a replica that died before advancing
		}
		return err
	})
	if err != nil {
		if r := tournament.ReasonOf(err); r != tournament.ReasonNoGame && r != tournament.ReasonOver {
			s.log.Error("tournament result not recorded", "channel", k.String(), "game", id, "err", err)
		}
		return Reply{}
	}
	if !t.Rounds[len(t.Rounds)-1].Over() {
		return Reply{}
	}
	t, advanced, err := ts.AdvanceTournament(ctx, k, t.ID, t.Round())
	if err != nil {
		s.log.Error("tournament round not advanced", "channel", k.String(), "err", err)
		return Reply{}
	}
	if !advanced {
		return Reply{}
	}
	return s.roundReply(ctx, l, t)
}

// tournamentID matches the ids tournamentNew makes.
var tournamentID = regexp.MustCompile(`^t[0-9a-z]+$`)

// attachTable records ref as the message of the table of channel k's
// tournament id, the one later rounds edit in place, and reports whether
// id is the channel's tournament (ending or not).
func (s *Service) attachTable(ctx context.Context, k match.Key, id string, ref match.MessageRef) bool {
	ts, err := s.tournaments()
	if err != nil || !tournamentID.MatchString(id) {
		return false
	}
	_, err = ts.UpdateTournament(ctx, k, id, func(t *tournament.Tournament) error {
		if t.Message == ref {
			return match.ErrNoChange
		}
		t.Message = ref
		return nil
	})
	if err != nil && !errors.Is(err, tournament.ErrNotFound) {
		s.log.Warn("tournament table's message not recorded: the next round posts it anew", "channel", k.String(), "err", err)
	}
	return err == nil
}

// tournamentProblem turns a tournament's refusal into a one-line one.
func tournamentProblem(err error) error {
	var te *tournament.Error
	switch {
	case errors.Is(err, tournament.ErrExists):
		return &UserError{Problem: ProblemBusy, ID: "tournament.problem.exists"}
	case errors.Is(err, tournament.ErrNotFound):
		return &UserError{Problem: ProblemNoGame, ID: "tournament.problem.none"}
	case !errors.As(err, &te):
		return err
	}
	p, args := ProblemBadVariant, lang.Args{"Limit": te.Limit}
	var id string
	switch te.Reason {
	case tournament.ReasonFormat:
		id = "tournament.problem.double"
	case tournament.ReasonRounds:
		id = "tournament.problem.rounds"
		args = lang.Args{"Max": cmp.Or(te.Limit, tournament.MaxRounds)}
		if te.Limit == 0 {
			id = "tournament.problem.roundRobinRounds"
		}
	case tournament.ReasonClock:
		var ce *clock.Error
		if errors.As(err, &ce) {
			return clockProblem(ce)
		}
		return err
	case tournament.ReasonBoard:
		return &UserError{Problem: ProblemBadVariant, ID: "tournament.problem.board"}
	case tournament.ReasonRoundLimit:
		return &UserError{Problem: ProblemBadVariant, ID: "tournament.problem.roundLimit"}
	case tournament.ReasonStartTime:
		return &UserError{Problem: ProblemBadVariant, ID: "tournament.problem.startTime"}
	case tournament.ReasonJoined:
		p, id = ProblemAlreadyAccepted, "tournament.problem.joined"
	case tournament.ReasonStarted:
		p, id = ProblemNotForYou, "tournament.problem.started"
	case tournament.ReasonOver:
		p, id = ProblemGameOver, "tournament.problem.over"
	case tournament.ReasonFull:
		p, id = ProblemChannelFull, "tournament.problem.full"
	case tournament.ReasonTooFew:
		p, id = ProblemNotStarted, "tournament.problem.tooFew"
	case tournament.ReasonNotOrganiser:
		p, id = ProblemOnlyChallenger, "tournament.problem.organiser"
	case tournament.ReasonNotPlayer, tournament.ReasonWithdrawn:
		p, id = ProblemNotInGame, "tournament.problem.notPlayer"
	default:
		return err
	}
	return &UserError{Problem: p, ID: id, Args: args}
}

// seeds returns the players' ratings in channel k this season, for Start
// to seed by (a player without a rated game has a new player's rating);
// nil, seeding in join order, when they cannot be read.
func (s *Service) seeds(ctx context.Context, k match.Key) func(id string) float64 {
	rated, err := s.raw.Ratings(ctx, k, 0)
	if err != nil {
		s.log.Warn("tournament seeded in join order: ratings not read", "channel", k.String(), "err", err)
		return nil
	}
	by := make(map[string]float64, len(rated))
	for _, st := range rated {
		if st.Rating != nil {
			by[st.Player.ID] = st.Rating.Rating.Rating
		}
	}
	def := match.NewRating().Rating.Rating
	return func(id string) float64 {
		if r, ok := by[id]; ok {
			return r
		}
		return def
	}
}
