package bot

import (
	"errors"

	"github.com/connect4/connect4/bot/lang"
)

// Problem is a reason a person's request was refused: something they can
// fix or should know. The zero value ProblemNone is not a problem.
type Problem uint8

// The problems, each with one sentence in the table below. New problems are
// only ever appended.
const (
	ProblemNone Problem = iota
	ProblemUsage
	ProblemNotYourTurn
	ProblemNotInGame
	ProblemGameOver
	ProblemColumnFull
	ProblemStale
	ProblemNoGame
	ProblemBusy
	ProblemSelfChallenge
	ProblemBotChallenge
	ProblemBadVariant
	ProblemNotForYou
	ProblemOwnChallenge
	ProblemOnlyChallenger
	ProblemExpired
	ProblemNotStarted
	ProblemTooEarly
	ProblemYourMove
	ProblemBadLevel
	ProblemRoundOver
	ProblemNothingToRematch
	ProblemCorrupt
	ProblemNotCorrupt
	ProblemUnavailable
	ProblemConflict
	ProblemInternal
	ProblemNoChallenge
	ProblemNothingDamaged
	ProblemReplay
	ProblemNotManager
	ProblemEmptySeason
	ProblemOfferPending
	ProblemOfferExpired
	ProblemNoOffer
	ProblemOwnOffer
	ProblemOnlyOfferer
	ProblemNothingToTakeBack
	ProblemTakebackPending
	ProblemTakebackLapsed
	ProblemOwnTakeback
	ProblemChannelFull
	ProblemRematchButton
	ProblemOpenDecline
	ProblemBoardTooSmall
	ProblemMultiMatch
	ProblemTooManyPlayers
	ProblemNamedTwice
	ProblemAITwoPlayers
	ProblemAlreadyAccepted
	ProblemNotInvited
	ProblemLeftGame
	ProblemNotNextToClaim
	ProblemTakebackTwoPlayers
	ProblemAlreadyAgreed
	ProblemBoardManager
	ProblemNothingToAnalyze
	ProblemNotOverYet
	ProblemPuzzleNoTakeback
	ProblemPuzzleNoRematch
	ProblemAnalysisBusy
	ProblemNewerVersion
	ProblemBadLanguage
	ProblemLanguageManager
	ProblemNoPuzzle
)

// messages is the one table of what people are told, by problem: a
// message id of the catalogue (the arguments named by the UserError).
var messages = [...]string{
	ProblemUsage:              "problem.usage",
	ProblemNotYourTurn:        "problem.notYourTurn",
	ProblemNotInGame:          "problem.notInGame",
	ProblemGameOver:           "problem.gameOver",
	ProblemColumnFull:         "problem.columnFull",
	ProblemStale:              "problem.stale",
	ProblemNoGame:             "problem.noGame",
	ProblemBusy:               "problem.busy.generic",
	ProblemSelfChallenge:      "problem.selfChallenge",
	ProblemBotChallenge:       "problem.botChallenge",
	ProblemBadVariant:         "problem.badVariant",
	ProblemNotForYou:          "problem.notForYou",
	ProblemOwnChallenge:       "problem.ownChallenge",
	ProblemOnlyChallenger:     "problem.onlyChallenger",
	ProblemExpired:            "problem.expired",
	ProblemNotStarted:         "problem.notStarted",
	ProblemTooEarly:           "problem.tooEarly",
	ProblemYourMove:           "problem.yourMove",
	ProblemBadLevel:           "problem.badLevel",
	ProblemRoundOver:          "problem.roundOver",
	ProblemNothingToRematch:   "problem.nothingToRematch",
	ProblemCorrupt:            "problem.corrupt",
	ProblemNotCorrupt:         "problem.notCorrupt",
	ProblemUnavailable:        "problem.unavailable",
	ProblemConflict:           "problem.conflict",
	ProblemInternal:           "problem.internal",
	ProblemNoChallenge:        "problem.noChallenge",
	ProblemNothingDamaged:     "problem.nothingDamaged",
	ProblemReplay:             "problem.replay",
	ProblemNotManager:         "problem.notManager",
	ProblemEmptySeason:        "problem.emptySeason",
	ProblemOfferPending:       "problem.offerPending",
	ProblemOfferExpired:       "problem.offerExpired",
	ProblemNoOffer:            "problem.noOffer",
	ProblemOwnOffer:           "problem.ownOffer",
	ProblemOnlyOfferer:        "problem.onlyOfferer",
	ProblemNothingToTakeBack:  "problem.nothingToTakeBack",
	ProblemTakebackPending:    "problem.takebackPending",
	ProblemTakebackLapsed:     "problem.takebackLapsed",
	ProblemOwnTakeback:        "problem.ownTakeback",
	ProblemChannelFull:        "problem.channelFull",
	ProblemRematchButton:      "problem.rematchButton",
	ProblemOpenDecline:        "problem.openDecline",
	ProblemBoardTooSmall:      "problem.boardTooSmall",
	ProblemMultiMatch:         "problem.multiMatch",
	ProblemTooManyPlayers:     "problem.tooManyPlayers",
	ProblemNamedTwice:         "problem.namedTwice",
	ProblemAITwoPlayers:       "problem.aiTwoPlayers",
	ProblemAlreadyAccepted:    "problem.alreadyAccepted",
	ProblemNotInvited:         "problem.notInvited",
	ProblemLeftGame:           "problem.leftGame",
	ProblemNotNextToClaim:     "problem.notNextToClaim",
	ProblemTakebackTwoPlayers: "problem.takebackTwoPlayers",
	ProblemAlreadyAgreed:      "problem.alreadyAgreed",
	ProblemBoardManager:       "problem.boardManager",
	ProblemNothingToAnalyze:   "problem.nothingToAnalyze",
	ProblemNotOverYet:         "problem.notOverYet",
	ProblemPuzzleNoTakeback:   "problem.puzzleNoTakeback",
	ProblemPuzzleNoRematch:    "problem.puzzleNoRematch",
	ProblemAnalysisBusy:       "problem.analysisBusy",
	ProblemNewerVersion:       "problem.newerVersion",
	ProblemLanguageManager:    "problem.languageManager",
	ProblemBadLanguage:        "problem.badLanguage",
	ProblemNoPuzzle:           "problem.noPuzzle",
}

// ID returns the message id of p's sentence (ProblemInternal's for an
// unknown p).
func (p Problem) ID() string {
	if int(p) < len(messages) && messages[p] != "" {
		return messages[p]
	}
	return messages[ProblemInternal]
}

// Sentence returns the sentence told for p in English, without its
// arguments (commands named as typed): for logs, and for adapters that
// answer before a Service can.
func (p Problem) Sentence() string { return p.In(lang.English) }

// In returns the sentence told for p in l, for a problem without
// arguments (an adapter's own refusals: the store unavailable, a bug);
// a command it names is written as typed (see syntax).
func (p Problem) In(l lang.Lang) string { return p.On(l, "") }

// On returns the sentence told for p in l on platform (match.Key's
// Platform), a command it names written as that platform reads it.
func (p Problem) On(l lang.Lang, platform string) string { return l.Say(p.ID(), syntax(l, platform)) }

// UserError is a refusal with its Problem and the named arguments of its
// sentence. ID, when set, is the message said instead of the Problem's
// own (a problem said in several ways, such as ProblemBusy). Its Error
// text is the sentence in English, for logs and tests.
type UserError struct {
	Problem Problem
	ID      string
	Args    lang.Args
}

// userErr returns the refusal p, with the arguments of its sentence (none,
// or one lang.Args).
func userErr(p Problem, args ...lang.Args) *UserError {
	e := &UserError{Problem: p}
	if len(args) > 0 {
		e.Args = args[0]
	}
	return e
}

// In returns what the person is told, in l.
func (e *UserError) In(l lang.Lang) string {
	id := e.ID
	if id == "" {
		id = e.Problem.ID()
	}
	return say(l, id, e.Args)
}

func (e *UserError) Error() string { return e.In(lang.English) }

// problemOf returns the Problem of err, or ProblemNone.
func problemOf(err error) Problem {
	var ue *UserError
	if errors.As(err, &ue) {
		return ue.Problem
	}
	return ProblemNone
}
