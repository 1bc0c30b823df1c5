package bot

import "log/slog"

// Outcome is how a request ended, for logs and metrics. The zero value
// means none is known yet.
type Outcome uint8

// The outcomes of a request. Reply.Outcome returns one of OutcomeOK,
// OutcomeRefused and OutcomeError; the adapters use the rest for requests
// that never reach the bot.
const (
	OutcomeNone Outcome = iota
	OutcomeOK
	OutcomeRefused
	OutcomeError
	OutcomeUnauthorized
	OutcomeBadRequest
	OutcomeTooLarge
)

var outcomeNames = [...]string{
	OutcomeNone:         "none",
	OutcomeOK:           "ok",
	OutcomeRefused:      "refused",
	OutcomeError:        "error",
	OutcomeUnauthorized: "unauthorized",
	OutcomeBadRequest:   "bad_request",
	OutcomeTooLarge:     "too_large",
}

// String returns the outcome's label value in logs and metrics: "ok",
// "refused", "error", "unauthorized", "bad_request", "too_large", or
// "none".
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "none"
}

// LogValue logs o as its String, in text and JSON alike.
func (o Outcome) LogValue() slog.Value { return slog.StringValue(o.String()) }

// OutcomeLevel is the level an adapter logs a finished request at: Warn
// for an unsigned one, else Debug. The metrics count every request, and a
// line per click at Info is noise an operator pays CPU for;
// LOG_LEVEL=debug shows them.
func OutcomeLevel(outcome Outcome) slog.Level {
	if outcome == OutcomeUnauthorized {
		return slog.LevelWarn
	}
	return slog.LevelDebug
}
