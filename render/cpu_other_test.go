//go:build !unix

package render

import (
	"testing"
	"time"
)

func reportCPU(*testing.B, time.Duration) {}

func processCPU() time.Duration { return 0 }
