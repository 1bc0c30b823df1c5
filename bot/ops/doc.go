// Package ops is what an operator sees of a serving bot: its Prometheus
// metrics, its /healthz and /readyz probes, the supervised background
// connections of its adapters, and an opt-in profiler.
package ops
