package bot

import "time"

// ConnectionState is the state of an adapter's long-lived connection (the
// Discord Gateway, Slack Socket Mode) at one moment, for readiness checks
// and metrics.
type ConnectionState struct {
	// Connected reports whether the connection is up.
	Connected bool
	// Since is when Connected last changed, or when the adapter was made.
	Since time.Time
	// Err is why the last attempt failed or the connection was lost; nil
	// while connected.
	Err error
	// Reconnects counts the times the connection came back after it was
	// lost or an attempt failed; the first connection does not count.
	Reconnects int
}
