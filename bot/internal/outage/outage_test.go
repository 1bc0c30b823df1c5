package outage

import (
	"errors"
	"io"
	"net/http"
	"syscall"
	"testing"
)

func get(t *testing.T, c *http.Client, url string) (string, error) {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func TestDownRefusesAndUpServesOnTheSameAddress(t *testing.T) {
	s, err := New(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "up") }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := &http.Client{}
	addr := s.Addr()
	steps := []struct {
		down    bool
		wantErr bool
	}{{false, false}, {true, true}, {true, true}, {false, false}, {true, true}, {false, false}}
	for i, st := range steps {
		if err := s.SetDown(st.down); err != nil {
			t.Fatalf("step %d: SetDown(%v) = %v", i, st.down, err)
		}
		if s.Down() != st.down || s.Addr() != addr {
			t.Fatalf("step %d: Down() = %v, Addr() = %s, want %v, %s", i, s.Down(), s.Addr(), st.down, addr)
		}
		body, err := get(t, c, s.URL()+"/")
		if st.wantErr {
			if !errors.Is(err, syscall.ECONNREFUSED) {
				t.Fatalf("step %d: GET while down = %q, %v, want connection refused", i, body, err)
			}
			continue
		}
		if err != nil || body != "up" {
			t.Fatalf("step %d: GET while up = %q, %v, want \"up\"", i, body, err)
		}
	}
	s.Close()
	if err := s.SetDown(false); !errors.Is(err, ErrClosed) {
		t.Fatalf("SetDown after Close = %v, want ErrClosed", err)
	}
}
