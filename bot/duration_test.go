package bot

import (
	"testing"
	"time"

	"github.com/connect4/connect4/bot/lang"
)

// TestDurationTrue checks that a time said is true: a challenge that
// lapses in a second does not "expire in a minute".
func TestDurationTrue(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{400 * time.Millisecond, "1 second"},
		{time.Second, "1 second"},
		{2 * time.Second, "2 seconds"},
		{45 * time.Second, "45 seconds"},
		{59 * time.Second, "59 seconds"},
		{time.Minute, "a minute"},
		{10 * time.Minute, "10 minutes"},
		{90 * time.Minute, "1h 30m"},
		{24 * time.Hour, "24 hours"},
	}
	for _, tt := range tests {
		if got := duration(tt.d).in(lang.English); got != tt.want {
			t.Errorf("duration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
	if got := duration(2 * time.Second).in(lang.Russian); got != "2 секунды" {
		t.Errorf("duration(2s) in Russian = %q, want %q", got, "2 секунды")
	}
}
