package testenv

import (
	"context"
	"log/slog"
	"strings"
	"sync"
)

// LogRecorder is a slog.Handler that keeps the messages it is given, for tests that
// check what a component logged. It is safe for concurrent use.
type LogRecorder struct {
	mu   sync.Mutex
	msgs []string
}

func (l *LogRecorder) Enabled(context.Context, slog.Level) bool { return true }

func (l *LogRecorder) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs = append(l.msgs, r.Message)
	return nil
}

func (l *LogRecorder) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *LogRecorder) WithGroup(string) slog.Handler      { return l }

// Count returns how many messages start with prefix.
func (l *LogRecorder) Count(prefix string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, m := range l.msgs {
		if strings.HasPrefix(m, prefix) {
			n++
		}
	}
	return n
}

// Messages returns a copy of the messages kept so far.
func (l *LogRecorder) Messages() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.msgs...)
}
