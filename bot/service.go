package bot

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/slots"
	"github.com/connect4/connect4/bot/ttlcache"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// Defaults for Options.
const (
	DefaultChallengeTTL   = 10 * time.Minute
	DefaultTurnTimeout    = 24 * time.Hour
	DefaultAIBudget       = time.Second
	DefaultAnalysisBudget = 10 * time.Second
	DefaultAIQueueWait    = time.Second
)

// MoveFunc chooses the AI's next column (0-based) in g at level, within
// budget and ctx. It must not change g.
type MoveFunc func(ctx context.Context, g *engine.Game, level solver.Level, budget time.Duration) (int, error)

// Hooks are called as games progress, for metrics; nil funcs are skipped.
// They must be safe for concurrent use.
type Hooks struct {
	GameStarted  func(platform string, ai bool)
	Move         func(platform string)
	GameFinished func(platform string, result string) // "win", "draw", "resign", "timeout", "declined", "cancelled", "expired"
}

// Options configure a Service. Zero fields take the defaults.
type Options struct {
	ChallengeTTL time.Duration // how long a challenge waits for an answer
	TurnTimeout  time.Duration // idle time after which the waiting player may claim the game
	// RemindAfter is how long after a turn began the player to move is
	// reminded, once (see RunSchedule); 0 means never, as does a value
	// not below TurnTimeout.
	RemindAfter time.Duration
	// IdleAfter is how long after its last write a game being played is
	// closed as abandoned; 0 means never. Keep it below the store's idle
	// TTL, so that the game is closed before its record expires.
	IdleAfter time.Duration
	AIBudget  time.Duration // thinking time of the AI per move
	// AnalysisBudget bounds the solver's work on one analysis; the
	// caller's deadline (the platform's) may cut it shorter. 0 means
	// DefaultAnalysisBudget.
	AnalysisBudget time.Duration
	// Analyze analyses a finished game; nil means solver.Analyze. Tests
	// count its calls.
	Analyze func(ctx context.Context, g *engine.Game, budget time.Duration) (solver.Analysis, error)
	AI      MoveFunc // the AI; nil means the engine/solver levels, with tables the Service keeps
	// AIConcurrency bounds the AI searches running at once (default: the
	// number of CPUs); human moves never wait for them.
	AIConcurrency int
	// AIQueueWait is how long an AI move waits for a free search before
	// the player is told to try again in a moment (default 1 s).
	AIQueueWait time.Duration
	// Pages makes the links to the web pages of games, channels and
	// players that replies carry as link buttons; nil means no links.
	Pages  PageLinks
	Logger *slog.Logger     // nil means slog.Default()
	Now    func() time.Time // nil means time.Now
	// PickPuzzle picks which of n puzzles of a level to pose: nil means
	// at random; a test's fixed choice makes a transcript repeatable.
	PickPuzzle func(n int) int
	Hooks      Hooks
}

// Service runs commands. It is safe for concurrent use: all state lives in
// the store.
type Service struct {
	// store is the raw store wrapped to plan the timers of every record
	// the use cases write (see timedStore); raw is the store itself, for
	// the writes that set their timers themselves (Fire) or leave them as
	// they are (Attach).
	store Store
	raw   Store
	opt   Options
	log   *slog.Logger
	slots *slots.Slots                               // the AI searches and analyses running at once
	looks *ttlcache.Cache[match.Key, match.Settings] // the channels' display settings read lately
}

// New returns a Service on store.
func New(store Store, opt Options) *Service {
	if opt.ChallengeTTL <= 0 {
		opt.ChallengeTTL = DefaultChallengeTTL
	}
	if opt.TurnTimeout <= 0 {
		opt.TurnTimeout = DefaultTurnTimeout
	}
	if opt.AIBudget <= 0 {
		opt.AIBudget = DefaultAIBudget
	}
	if opt.AI == nil {
		ai := solver.NewAI() // owns hard's tables, reused between moves
		opt.AI = func(ctx context.Context, g *engine.Game, level solver.Level, budget time.Duration) (int, error) {
			return ai.ChooseMove(ctx, g, level, nil, budget)
		}
	}
	if opt.AnalysisBudget <= 0 {
		opt.AnalysisBudget = DefaultAnalysisBudget
	}
	if opt.Analyze == nil {
		opt.Analyze = solver.Analyze
	}
	if opt.AIConcurrency <= 0 {
		opt.AIConcurrency = runtime.GOMAXPROCS(0)
	}
	if opt.AIQueueWait <= 0 {
		opt.AIQueueWait = DefaultAIQueueWait
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	log := opt.Logger
	if log == nil {
		log = slog.Default()
	}
	s := &Service{raw: store, opt: opt, log: log, slots: slots.New(opt.AIConcurrency, opt.AIQueueWait),
		looks: ttlcache.New[match.Key, match.Settings](settingsTTL, maxCachedSettings)}
	s.store = timedStore{Store: store, s: s}
	return s
}

// Slow reports whether cmd may take longer than a chat platform's
// acknowledgement deadline (it may involve an AI move), so the adapter
// should acknowledge first and deliver the reply later.
func (s *Service) Slow(cmd Command) bool {
	switch cmd.Kind {
	case KindDrop:
		return !cmd.Human // a drop in an AI game may wait for the AI's reply
	case KindAI, KindRematch, KindNextRound, KindOfferAccept, KindAnalyze:
		return true // an analysis not yet cached runs the solver
	case KindChallenge:
		return cmd.Self.ID != "" && cmd.Opponent.ID == cmd.Self.ID
	}
	return false
}

// Handle runs cmd and returns the reply. It never fails: a refusal is an
// ephemeral reply with its Problem set, and an unexpected error is logged
// at Error level and answered with a short apology.
func (s *Service) Handle(ctx context.Context, cmd Command) Reply {
	ctx, news := withNews(ctx)
	r, err := s.handle(match.WithNonce(ctx, cmd.Nonce), cmd)
	if err == nil {
		r = news.into(r)
		return s.withLinks(ctx, cmd, s.withLook(ctx, cmd, r))
	}
	return s.refusal(cmd, err)
}

// HandleText parses text, typed after /connect4 (see ParseText), into
// cmd's request and runs it like Handle. Text it cannot parse gets an
// ephemeral reply: the command probably meant when one is close (see
// Suggest), else why, with the help when the words say nothing more.
func (s *Service) HandleText(ctx context.Context, cmd Command, text string) Reply {
	req, err := ParseText(text)
	if err != nil {
		if p := problemOf(err); p == ProblemUsage || p == ProblemBadLevel {
			if sug, ok := Suggest(text, cmd.Names); ok {
				err = &UserError{Problem: ProblemUsage, ID: "problem.didYouMean", Args: lang.Args{"Typed": text, "Suggestion": sug}}
			}
		}
		return s.refusal(cmd, err)
	}
	cmd.Request = req
	return s.Handle(ctx, cmd)
}

// refusal is the ephemeral reply to err.
func (s *Service) refusal(cmd Command, err error) Reply {
	p := problemOf(err)
	switch {
	case p != ProblemNone:
	case errors.Is(err, match.ErrUnavailable):
		p = ProblemUnavailable
		s.log.Warn("store unavailable", "kind", cmd.Kind.String(), "channel", cmd.Key.String(), "err", err)
	case errors.Is(err, match.ErrReplay):
		p = ProblemReplay
		s.log.Warn("replayed request refused", "kind", cmd.Kind.String(), "channel", cmd.Key.String())
	case errors.Is(err, match.ErrConflict):
		p = ProblemConflict
		s.log.Warn("optimistic lock retries exhausted", "kind", cmd.Kind.String(), "channel", cmd.Key.String(), "err", err)
	case errors.Is(err, match.ErrNewerSchema):
		p = ProblemNewerVersion
		s.log.Warn("record written by a newer version", "kind", cmd.Kind.String(), "channel", cmd.Key.String(), "err", err)
	case errors.Is(err, match.ErrCorrupt):
		p = ProblemCorrupt
		s.log.Error("corrupt game record", "kind", cmd.Kind.String(), "channel", cmd.Key.String(), "err", err)
	default:
		p = ProblemInternal
		s.log.Error("command failed", "kind", cmd.Kind.String(), "channel", cmd.Key.String(), "err", err)
	}
	l := s.userLang(cmd) // a refusal is for the sender alone
	text := say(l, p.ID(), syntax(l, cmd.Key.Platform))
	var ue *UserError
	if errors.As(err, &ue) {
		text = (&UserError{Problem: ue.Problem, ID: ue.ID, Args: withSyntax(ue.Args, l, cmd.Key.Platform)}).In(l)
	}
	if p == ProblemUsage && (ue == nil || !specific(ue)) {
		text += "\n\n" + helpText(l, s.opt.TurnTimeout)
	}
	return Reply{Visibility: Ephemeral, Text: text, Problem: p, Lang: l}
}

// specific reports whether a refusal of usage says what was wrong (a
// grammar.* reason, a sentence of its own, a suggestion) rather than only
// the words typed: then it is one line, and the whole help would bury it.
func specific(ue *UserError) bool {
	_, ok := ue.Args["Detail"].(phrase)
	return ok || ue.ID != ""
}

func (s *Service) handle(ctx context.Context, cmd Command) (Reply, error) {
	cmd = cmd.clipNames()
	if err := cmd.Key.Validate(); err != nil {
		return Reply{}, err
	}
	if cmd.User.ID == "" {
		return Reply{}, errors.New("bot: command without a user")
	}
	switch cmd.Kind {
	case KindNone, KindHelp:
		l := s.userLang(cmd)
		return Reply{Visibility: Ephemeral, Text: helpText(l, s.opt.TurnTimeout), Lang: l}, nil
	case KindChallenge, KindOpen:
		return s.challenge(ctx, cmd)
	case KindAI:
		return s.startAI(ctx, cmd, cmd.Level)
	case KindAccept, KindDecline, KindCancel:
		return s.answer(ctx, cmd)
	case KindDrop:
		return s.drop(ctx, cmd)
	case KindResign, KindClaim:
		return s.end(ctx, cmd)
	case KindRematch:
		return s.rematch(ctx, cmd)
	case KindNextRound:
		return s.nextRound(ctx, cmd)
	case KindBoard:
		return s.board(ctx, cmd)
	case KindLeaderboard:
		return s.leaderboard(ctx, cmd)
	case KindStats:
		return s.stats(ctx, cmd)
	case KindReset:
		return s.reset(ctx, cmd)
	case KindOfferAccept, KindOfferDecline, KindOfferWithdraw:
		return s.answerOffer(ctx, cmd)
	case KindTakeback:
		return s.takeback(ctx, cmd)
	case KindTournament, KindTournamentNew, KindTournamentJoin, KindTournamentStart, KindTournamentWithdraw, KindTournamentCancel:
		return s.tournament(ctx, cmd)
	case KindTakebackAccept, KindTakebackDecline:
		return s.answerTakeback(ctx, cmd)
	case KindNewSeason:
		return s.newSeason(ctx, cmd)
	case KindSeasons:
		return s.seasons(ctx, cmd)
	case KindSettings:
		return s.settings(ctx, cmd)
	case KindAnalyze:
		return s.analyze(ctx, cmd)
	case KindPuzzle:
		return s.puzzle(ctx, cmd)
	case KindAbort:
		return s.abort(ctx, cmd)
	case KindDraw, KindDrawAccept, KindDrawDecline:
		return s.draw(ctx, cmd)
	}
	return Reply{}, userErr(ProblemUsage, lang.Args{"Detail": cmd.Kind.String()})
}
