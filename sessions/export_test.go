package sessions

// QueuedWrites returns how many writes wait in s's pipeliner for a batch
// of their own (0 without one), for the tests of package sessions_test.
func QueuedWrites(s *Redis) int {
	if s.pipe == nil {
		return 0
	}
	return s.pipe.Len()
}

// WaitingWrites returns how many pipelined writes of s wait for their
// replies, queued or on their way.
func WaitingWrites(s *Redis) int { return int(s.waiting.Load()) }

// SetPipelineQueue makes the stores created from now on hold at most n
// writes in their pipeliner (on clients that have none yet), until the
// returned func restores the limit.
func SetPipelineQueue(n int) (restore func()) {
	was := pipelineQueue
	pipelineQueue = n
	return func() { pipelineQueue = was }
}
