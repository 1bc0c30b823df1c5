package clock

import (
	"strconv"
	"time"
)

// Format returns d as a clock shows it: "m:ss" under an hour ("2:41",
// "0:05"), "h:mm:ss" from an hour on ("1:02:03", "47:59:59" for a
// correspondence move's two days less a second). Seconds are whole, cut
// down as a chess clock does (2:40.9 shows "2:40"), so "0:00" means less
// than a second left; a negative d shows as "0:00".
func Format(d time.Duration) string {
	s := max(int64(d/time.Second), 0)
	h, m, sec := s/3600, s/60%60, s%60
	b := make([]byte, 0, 12)
	if h > 0 {
		b = strconv.AppendInt(b, h, 10)
		b = append(b, ':')
		b = append(b, byte('0'+m/10), byte('0'+m%10))
	} else {
		b = strconv.AppendInt(b, m, 10)
	}
	b = append(b, ':', byte('0'+sec/10), byte('0'+sec%10))
	return string(b)
}
