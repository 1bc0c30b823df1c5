// Package ops is what an operator sees of a serving bot: its Prometheus
// metrics, its /healthz and /readyz probes, the supervised background
// connections of its adapters, an opt-in profiler, and the number of Go
// processors it runs on, adapted to its load (Procs).
package ops
