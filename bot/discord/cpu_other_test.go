//go:build !unix

package discord

import "time"

func processCPU() time.Duration { return 0 }
