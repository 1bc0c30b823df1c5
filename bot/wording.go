package bot

import (
	"errors"
	"fmt"
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
)

// sentences is the one table of what people are told, by problem. Some take
// arguments, filled in by UserError.
var sentences = [...]string{
	ProblemUsage:              "I didn't understand that (%s). Try `/connect4 help`.",
	ProblemNotYourTurn:        "It's not your turn: wait for <@%s> to move.",
	ProblemNotInGame:          "You're not playing in this game. Start your own with `/connect4 challenge @someone` once it's over.",
	ProblemGameOver:           "That game is over. Click Rematch to play again, or start a new one with `/connect4 challenge @someone`.",
	ProblemColumnFull:         "Column %d is full: pick another one.",
	ProblemStale:              "That button is out of date (the board has moved on), so it did nothing. Use the latest board.",
	ProblemNoGame:             "There's no game in this channel. Start one with `/connect4 challenge @someone` or `/connect4 ai`.",
	ProblemBusy:               "%s in this channel already; it has to finish first.",
	ProblemSelfChallenge:      "You can't challenge yourself. Try `/connect4 ai` to play against me.",
	ProblemBotChallenge:       "<@%s> is a bot and can't play. Try `/connect4 ai` to play against me instead.",
	ProblemBadVariant:         "%s %d is not allowed: choose from %d to %d.",
	ProblemNotForYou:          "This challenge is for <@%s>; only they can answer it.",
	ProblemOwnChallenge:       "You can't accept or decline your own challenge. Cancel it instead if you've changed your mind.",
	ProblemOnlyChallenger:     "Only <@%s>, who made the challenge, can cancel it.",
	ProblemExpired:            "That challenge has expired. Start a new one with `/connect4 challenge @someone`.",
	ProblemNotStarted:         "The game hasn't started: <@%s> still has to accept the challenge.",
	ProblemTooEarly:           "<@%s> still has %s to move before you can claim the game.",
	ProblemYourMove:           "It's your move, so there's nothing to claim.",
	ProblemBadLevel:           "There's no AI level %q: choose easy, medium or hard.",
	ProblemRoundOver:          "This round is over. Click Next round to play the next one.",
	ProblemNothingToRematch:   "There's no finished game here to rematch. Start one with `/connect4 challenge @someone`.",
	ProblemCorrupt:            "This channel's saved data is damaged and can't be read. Anyone here can repair it with `/connect4 reset`.",
	ProblemNotCorrupt:         "The saved game here is fine, so there's nothing to reset. Players can `/connect4 resign` instead.",
	ProblemUnavailable:        "The game store is unavailable, try again in a moment.",
	ProblemConflict:           "Lots of clicks at once: yours didn't get through. Please try again.",
	ProblemInternal:           "Sorry, something went wrong on my side. It has been logged; please try again.",
	ProblemNoChallenge:        "There's no open challenge in this channel.",
	ProblemNothingDamaged:     "Nothing here is damaged, so there's nothing to reset.",
	ProblemReplay:             "That request was already handled, so it did nothing this time.",
	ProblemNotManager:         "Only people who can manage this channel can start a new season.",
	ProblemEmptySeason:        "This season has no rated games yet, so there's nothing to archive.",
	ProblemOfferPending:       "You've made that offer already: waiting for <@%s> to answer.",
	ProblemOfferExpired:       "That offer has expired. Click Rematch or Next round to offer again.",
	ProblemNoOffer:            "That offer is no longer open (it was answered or withdrawn), so the button did nothing.",
	ProblemOwnOffer:           "That's your own offer: wait for the other player, or withdraw it.",
	ProblemOnlyOfferer:        "Only <@%s>, who made the offer, can withdraw it.",
	ProblemNothingToTakeBack:  "There's no move of yours to take back: you can take back your last move until <@%s> moves.",
	ProblemTakebackPending:    "You've asked for a takeback already: wait for the answer.",
	ProblemTakebackLapsed:     "That takeback request has lapsed (the board has moved on), so the button did nothing.",
	ProblemOwnTakeback:        "That's your own takeback request: the other player answers it.",
	ProblemOpenDecline:        "That's an open challenge: there's nothing to decline. Leave it for someone else.",
	ProblemChannelFull:        "This channel has %d games going, the most it holds at once: wait for one to finish.",
	ProblemRematchButton:      "Click Rematch on the finished game's message to offer a rematch.",
	ProblemBoardTooSmall:      "That board is too small: %s. Try `9x7` or a shorter line such as `connect 3`.",
	ProblemMultiMatch:         "A game of 3 or 4 players is a single game: `first-to` is for two players.",
	ProblemTooManyPlayers:     "A game has at most %d players: name up to three others.",
	ProblemNamedTwice:         "<@%s> is named twice: name each player once.",
	ProblemAITwoPlayers:       "I only play two-player games: challenge people for a game of 3 or 4, or `/connect4 ai` on your own.",
	ProblemAlreadyAccepted:    "You've accepted already: waiting for %s.",
	ProblemNotInvited:         "This challenge is for %s; only they can answer it.",
	ProblemLeftGame:           "You've left this game: your discs stay, but you don't play any more.",
	ProblemNotNextToClaim:     "Only <@%s>, who moves after <@%s>, can claim against them.",
	ProblemTakebackTwoPlayers: "Takebacks are for two-player games.",
	ProblemAlreadyAgreed:      "You've agreed to the rematch already: waiting for %s.",
	ProblemBoardManager:       "Only people who can manage this channel can choose pictures or emoji for its boards; anyone can change the palette.",
	ProblemNothingToAnalyze:   "You have no finished game in this channel to analyse. Finish one first, or click Analysis under a finished game.",
	ProblemNotOverYet:         "That game isn't over yet: it can be analysed once it is.",
	ProblemPuzzleNoTakeback:   "A puzzle has no takebacks: each move counts.",
	ProblemPuzzleNoRematch:    "A puzzle has no rematch: `/connect4 puzzle` gives you a new one.",
	ProblemAnalysisBusy:       "I'm thinking about many games at once: ask for the analysis again in a moment.",
	ProblemNewerVersion:       "This game was saved by a newer version of the bot that is being rolled out, so this server can't read it yet. Nothing is lost and there's nothing to reset: try again in a few minutes.",
}

// Sentence returns the sentence told for p, before its arguments are filled
// in.
func (p Problem) Sentence() string {
	if int(p) < len(sentences) && sentences[p] != "" {
		return sentences[p]
	}
	return sentences[ProblemInternal]
}

// UserError is a refusal with its Problem and the arguments of its sentence.
// Its Error text is what the person is told.
type UserError struct {
	Problem Problem
	Args    []any
}

func userErr(p Problem, args ...any) *UserError { return &UserError{Problem: p, Args: args} }

func (e *UserError) Error() string {
	if len(e.Args) == 0 {
		return e.Problem.Sentence()
	}
	return fmt.Sprintf(e.Problem.Sentence(), e.Args...)
}

// problemOf returns the Problem of err, or ProblemNone.
func problemOf(err error) Problem {
	var ue *UserError
	if errors.As(err, &ue) {
		return ue.Problem
	}
	return ProblemNone
}

const helpText = "*Connect Four* — drop discs, line up four to win.\n" +
	"• `/connect4 @someone` — challenge someone (add `9x7` for 9 columns × 7 rows, `connect 5`, `first-to 3` for other boards and matches)\n" +
	"• `/connect4 @a @b [@c]` — a game of 3 or 4 players, once everyone accepts (7 columns or more; a resignation or a claim leaves the game)\n" +
	"• `/connect4 open` — an open challenge anyone here may accept (same options)\n" +
	"• `/connect4 ai [easy|medium|hard]` — play against me\n" +
	"• Click a column number to drop your disc; Rematch swaps who starts\n" +
	"• `/connect4 board` — show your game again at the bottom (or which games are running here)\n" +
	"• Rematch and Next round are offers: the other player accepts or declines\n" +
	"• `/connect4 takeback` — ask to take back your last move, until your opponent moves\n" +
	"• `/connect4 resign` — give up the current game (`resign match` gives up the whole match)\n" +
	"• `/connect4 claim` — win a game your opponent has left idle for a day\n" +
	"• `/connect4 cancel` — withdraw your open challenge\n" +
	"• `/connect4 puzzle [easy|medium|hard]` — a position where you have a forced win: find it against my perfect defence\n" +
	"• `/connect4 analyze` — the solver's verdict on each move of your last finished game here (or click Analysis under a finished game)\n" +
	"• `/connect4 leaderboard` — this channel's top 10 by rating\n" +
	"• `/connect4 stats [@someone]` — a rating, record and form here; `stats @a @b` for head to head\n" +
	"• `/connect4 seasons` — past seasons; `/connect4 season new` starts a new one (channel managers)\n" +
	"• `/connect4 settings board image|emoji` — boards as pictures or emoji here (channel managers); `settings palette standard|colourblind` — colours (anyone)\n" +
	"• `/connect4 reset` — clear a damaged saved game"
