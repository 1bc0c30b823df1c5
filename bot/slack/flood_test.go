package slack

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/boardurl"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// countingStore counts the records loaded, one per picture drawn.
type countingStore struct {
	bot.Store
	loads atomic.Int64
}

func (s *countingStore) Load(ctx context.Context, k match.Key, gameID string) (*match.Record, error) {
	s.loads.Add(1)
	return s.Store.Load(ctx, k, gameID)
}

// TestPictureFlood asks for one picture URL (the replay GIF of a 10 x 10
// game of 25 moves), not yet drawn, 150 times at once: it is drawn once, every request gets it, and the memory allocated
// meanwhile stays under a bound (150 draws allocate ~280 MiB).
func TestPictureFlood(t *testing.T) {
	st := &countingStore{Store: storetest.NewMemory(t, sessions.Options{})}
	e := newEnv(t, st, Config{Pictures: true, PublicURL: "https://c4.example.com/"})
	m := e.click("UB", e.slash("UA", "<@UB> 10x10"), "Accept")
	for i := range 25 { // 2.5 rows, each column one colour: no four in a row
		m = e.click([]string{"UA", "UB"}[i%2], m, strconv.Itoa(i%10+1))
	}
	ib := imageBlock(m)
	if ib == nil {
		t.Fatal("no picture")
	}
	// The replay GIF of the same game, the dearest picture to draw.
	b, err := e.a.pics.signer.Parse(strings.TrimPrefix(ib.ImageURL, "https://c4.example.com/boards/"), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	b.Kind = boardurl.GIF
	path := "/boards/" + e.a.pics.signer.Token(b)
	mux := http.NewServeMux()
	e.a.Register(mux)

	const requests = 150
	before := st.loads.Load()
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	var wg sync.WaitGroup
	start := make(chan struct{})
	codes := make([]int, requests)
	for i := range requests {
		wg.Go(func() {
			<-start
			w := httptest.NewRecorder()
			mux.ServeHTTP(w, httptest.NewRequestWithContext(t.Context(), http.MethodGet, path, nil))
			codes[i] = w.Code
		})
	}
	close(start)
	wg.Wait()
	runtime.ReadMemStats(&ms1)
	draws := st.loads.Load() - before
	alloc := ms1.TotalAlloc - ms0.TotalAlloc
	t.Logf("%d requests for one picture: %d drawn, %.1f MiB allocated", requests, draws, float64(alloc)/(1<<20))
	for i, c := range codes {
		if c != http.StatusOK {
			t.Fatalf("request %d answered %d, want 200", i, c)
		}
	}
	if draws != 1 {
		t.Errorf("the picture was drawn %d times for %d requests at once, want once", draws, requests)
	}
	const bound = 40 << 20
	if alloc > bound {
		t.Errorf("%.1f MiB allocated serving %d requests for one picture, want at most %d MiB", float64(alloc)/(1<<20), requests, bound>>20)
	}
}
