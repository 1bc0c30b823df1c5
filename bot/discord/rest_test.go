package discord

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRestClientKeepsConnections: the REST client the adapter makes keeps
// its connections to Discord between bursts of calls in flight together
// (http.DefaultTransport keeps 2, and the third call of a burst on
// opened a connection each time), and closes them when asked.
func TestRestClientKeepsConnections(t *testing.T) {
	var opened atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Write([]byte("{}"))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	apiURL, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c := restClient(nil, apiURL)
	const inFlight = 8
	burst := func() {
		var start, done sync.WaitGroup
		start.Add(inFlight)
		for range inFlight {
			done.Go(func() {
				start.Done()
				start.Wait() // all in flight together
				resp, err := c.Post("https://discord.com/api/v9/webhooks/1/t", "application/json", strings.NewReader(strings.Repeat("x", 10<<10)))
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			})
		}
		done.Wait()
	}
	burst()
	first := opened.Load()
	for range 3 {
		burst()
	}
	if n := opened.Load(); n != first {
		t.Errorf("3 more bursts of %d calls opened %d more connections after the first burst's %d; want none", inFlight, n-first, first)
	}
	c.CloseIdleConnections()
	burst()
	if n := opened.Load(); n == first {
		t.Error("after CloseIdleConnections a burst opened no connection; want the idle ones closed")
	}
}
