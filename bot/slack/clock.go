package slack

import (
	"strconv"
	"time"
)

// slackTime writes t as Slack's date token, shown in each reader's own
// time zone, with the time in UTC as the fallback Slack shows where it
// cannot format it.
func slackTime(t time.Time) string {
	return "<!date^" + strconv.FormatInt(t.Unix(), 10) + "^{date_short_pretty} {time_secs}|" + t.UTC().Format("2006-01-02 15:04:05 UTC") + ">"
}
