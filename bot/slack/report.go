package slack

import "github.com/connect4/connect4/bot/internal/inbound"

// kindUnknown is the kind of a request that never became a command.
const kindUnknown = inbound.KindUnknown

// report is what is logged and observed about one request: the shared
// inbound.Report, and whether it is a command or a click.
type report struct {
	inbound.Report
	what string // "command" or "click"
}

func newReport(via, what string) *report {
	return &report{Report: inbound.NewReport(via), what: what}
}

// done observes rep and logs it at bot.OutcomeLevel.
func (a *Adapter) done(rep *report) { a.rec.Done(&rep.Report, "request", rep.what) }
