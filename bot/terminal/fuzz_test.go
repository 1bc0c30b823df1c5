package terminal

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// FuzzRun types arbitrary input into a session: it never panics, never
// fails on input that reads without error, and answers every line that
// is not blank, a comment, `as <name>` or quit with at least one line.
func FuzzRun(f *testing.F) {
	for _, seed := range []string{
		"/connect4 @bob\nas bob\nAccept\nas alice\n4\n",
		"/connect4 ai easy\n1\n2\n[3]\n99\n-1\nRematch\n",
		"as \nas @@\n/connect4\n/connect4 challenge <@x>\n\x00\n\r\n",
		strings.Repeat("x", 100) + "\n/connect4 help",
		"[]\n[[1]]\n1e3\n+4\n",
	} {
		f.Add(seed)
	}
	svc := newService(nil, io.Discard)
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		a, err := New(svc, Config{In: strings.NewReader(in), Out: &out, MaxLine: 64}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Run(t.Context()); err != nil {
			t.Fatalf("Run(%q) = %v", in, err)
		}
		answered := 0
		for line := range strings.Lines(in) {
			text := strings.ToLower(strings.TrimSpace(line))
			if text == "quit" || text == "exit" {
				break
			}
			if text != "" && !strings.HasPrefix(text, "#") && !strings.HasPrefix(text, "as ") {
				answered++
			}
		}
		if answered > 0 && out.Len() == 0 {
			t.Errorf("Run(%q) answered nothing", in)
		}
	})
}
