package bot

import (
	"log/slog"
	"time"
)

// outage reports a dependency that keeps failing (the schedule's store,
// polled twice a second) once when it starts failing and once when it
// answers again, with the number of failures and how long it lasted,
// instead of a line at every attempt. Not safe for concurrent use: its
// owner is one loop.
type outage struct {
	log  *slog.Logger
	what string // what failed, as the log names it: "schedule claim"
	now  func() time.Time

	since    time.Time // when the first failure of the outage was seen
	failures int       // since then; 0 when not in an outage
}

// fail records a failed attempt: the first of an outage is logged, at Warn,
// with its error.
func (o *outage) fail(err error) {
	if o.failures == 0 {
		o.since = o.now()
		o.log.Warn(o.what+" failing; retrying quietly until it works again", "err", err)
	}
	o.failures++
}

// ok records a successful attempt: it ends an outage, logged at Info with
// the number of failures and its duration.
func (o *outage) ok() {
	if o.failures == 0 {
		return
	}
	o.log.Info(o.what+" works again", "failures", o.failures, "outage", o.now().Sub(o.since).Round(time.Millisecond))
	o.failures = 0
}
