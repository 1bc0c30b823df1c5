package discord

import (
	"strconv"
	"time"
)

// relativeTime writes t as Discord's relative timestamp ("in 2 minutes"),
// which each reader's client keeps up to date: a game message cannot tick.
func relativeTime(t time.Time) string {
	return "<t:" + strconv.FormatInt(t.Unix(), 10) + ":R>"
}

// timeControl reads the clock and days options of challenge and open as
// the typed grammar says them ("clock 3+2", "days 2"); both at once are
// passed on as typed, for the Service to refuse.
func timeControl(opts []*option) string {
	c, hasClock := stringOption(opts, "clock")
	d, hasDays := intOption(opts, "days")
	switch {
	case hasClock && hasDays:
		return "clock " + c + " days " + strconv.Itoa(d)
	case hasClock:
		return "clock " + c
	case hasDays:
		return "days " + strconv.Itoa(d)
	}
	return ""
}
