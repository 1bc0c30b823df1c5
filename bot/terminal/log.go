package terminal

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
)

// QuietCancel returns h without the records whose "err" attribute is a
// cancelled context: in the terminal that is Ctrl-C during an AI move, the
// person's wish rather than a failure (bot logs the interrupted search as
// "AI move failed").
func QuietCancel(h slog.Handler) slog.Handler { return quietCancel{h} }

type quietCancel struct{ slog.Handler }

// Handle implements slog.Handler.
func (h quietCancel) Handle(ctx context.Context, r slog.Record) error {
	cancelled := false
	r.Attrs(func(a slog.Attr) bool {
		if err, ok := a.Value.Any().(error); ok && a.Key == "err" && errors.Is(err, context.Canceled) {
			cancelled = true
			return false
		}
		return true
	})
	if cancelled {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h quietCancel) WithAttrs(as []slog.Attr) slog.Handler {
	return quietCancel{h.Handler.WithAttrs(as)}
}

// WithGroup implements slog.Handler.
func (h quietCancel) WithGroup(name string) slog.Handler {
	return quietCancel{h.Handler.WithGroup(name)}
}

// IsTerminal reports whether r is a character device, a person at a
// keyboard rather than a pipe: Config.Prompt.
func IsTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// IsTerminalOut reports whether w is a terminal (a character device), where
// emphasis may be drawn with escape sequences.
func IsTerminalOut(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
