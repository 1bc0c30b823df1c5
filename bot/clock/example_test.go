package clock_test

import (
	"fmt"
	"time"

	"github.com/connect4/connect4/bot/clock"
)

// A 3+2 game: Red thinks 19 seconds, Yellow answers at once; the message
// shows each player's time as of the last move and when Red's flag falls.
func Example() {
	c, err := clock.ParseLive("3+2")
	if err != nil {
		fmt.Println(err)
		return
	}
	start := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	k := clock.Start(c, 2, start)
	k, _ = k.Move(start.Add(19*time.Second), 1)
	k, _ = k.Move(start.Add(20*time.Second), 0)
	fmt.Println("Red", clock.Format(k.Remaining(0, k.Since)), "Yellow", clock.Format(k.Remaining(1, k.Since)))
	fmt.Println("Red's flag falls at", k.FlagAt().Format("15:04:05"))
	_, err = clock.ParseDays("99")
	fmt.Println(err)
	// Output:
	// Red 2:43 Yellow 3:01
	// Red's flag falls at 20:03:03
	// clock: days out of range in "99": want 1 to 14
}
