package boltstore

// WaitCompaction waits for a compaction running in the background to end.
func (s *Store) WaitCompaction() { s.bg.Wait() }
