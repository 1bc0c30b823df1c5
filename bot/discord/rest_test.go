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
// (http.DefaultTransport keeps 2, and every call of a burst beyond two
// opened a connection of its own each time), and closes them when asked.
func TestRestClientKeepsConnections(t *testing.T) {
	const inFlight, bursts = 8, 4
	var opened atomic.Int64
	var mu sync.Mutex
	var release chan struct{} // closed when a burst's calls are all in the handler
	arrived := make(chan struct{}, inFlight)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		rel := release
		mu.Unlock()
		arrived <- struct{}{}
		<-rel
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
	// burst makes inFlight calls that are all in the server's handler at
	// once, each on a connection of its own.
	burst := func() {
		mu.Lock()
		release = make(chan struct{})
		rel := release
		mu.Unlock()
		var done sync.WaitGroup
		for range inFlight {
			done.Go(func() {
				resp, err := c.Post("https://discord.com/api/v9/webhooks/1/t", "application/json", strings.NewReader(strings.Repeat("x", 10<<10)))
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			})
		}
		for range inFlight {
			<-arrived
		}
		close(rel)
		done.Wait()
	}
	for range bursts {
		burst()
	}
	// Kept connections: the first burst's inFlight, and now and then one
	// more when a call starts before a connection is back in the pool.
	// Keeping 2 opens inFlight-2 more every burst.
	n := opened.Load()
	if n > 2*inFlight {
		t.Errorf("%d bursts of %d calls opened %d connections; want about %d, those of the first", bursts, inFlight, n, inFlight)
	}
	c.CloseIdleConnections()
	burst()
	if opened.Load() == n {
		t.Error("after CloseIdleConnections a burst opened no connection; want the idle ones closed")
	}
}
