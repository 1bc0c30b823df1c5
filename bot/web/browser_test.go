package web

import (
	"bytes"
	"context"
	"flag"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

var update = flag.Bool("update", false, "rewrite the screenshots under testdata")

// browser returns a chromedp context on a headless Chromium, or skips the
// test outside CI (unless CONNECT4_TEST_BROWSER is set) and where none is
// installed (failing it in CI, where .ci/run installs Debian's chromium).
func browser(t *testing.T) context.Context {
	t.Helper()
	// A browser's start costs seconds: like the solver's full-size tests,
	// these run in CI (and on demand), so that `go test ./...` stays quick.
	if os.Getenv("CI") != "true" && os.Getenv("CONNECT4_TEST_BROWSER") == "" {
		t.Skip("the browser tests run with CI=true or CONNECT4_TEST_BROWSER=1 (they need Debian's chromium)")
	}
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("no Chromium installed: CI must run the browser tests (.ci/run installs Debian's chromium)")
		}
		t.Skip("no Chromium installed (apt-get install chromium): the browser tests are skipped")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1000, 900),
		chromedp.Flag("font-render-hinting", "none"))
	actx, cancelAlloc := chromedp.NewExecAllocator(t.Context(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("start Chromium: %v", err)
	}
	return ctx
}

// visibleDiscs is the board the page's SVG shows: [row, col, player] of
// each disc not hidden.
const visibleDiscs = `[...document.querySelectorAll('#board .disc')].filter(d => getComputedStyle(d).display !== 'none').map(d => [+d.dataset.row, +d.dataset.col, +d.dataset.player])`

// boardAt returns the discs of g's first n moves as visibleDiscs lists
// them, sorted.
func boardAt(t *testing.T, cfg engine.Config, cols []int, n int) [][3]int {
	t.Helper()
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cols[:n] {
		if err := g.Play(g.Turn(), c); err != nil {
			t.Fatal(err)
		}
	}
	var out [][3]int
	b := g.Board()
	for col := range cfg.Cols {
		for row := range cfg.Rows {
			if p := b.At(row, col); p != engine.NoPlayer {
				out = append(out, [3]int{row, col, int(p)})
			}
		}
	}
	return out
}

func sorted(ds [][3]int) [][3]int {
	slices.SortFunc(ds, func(a, b [3]int) int {
		for i := range a {
			if a[i] != b[i] {
				return a[i] - b[i]
			}
		}
		return 0
	})
	return ds
}

// TestBrowserGamePage opens a game page in Chromium, steps through every
// move with the keyboard checking the SVG board against the game at each
// step, asks for the analysis with the page's button and waits for the
// verdicts, and checks the page fits a phone's width.
func TestBrowserGamePage(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	cols := drawnGame(t)[:30]
	// Play on until someone wins, so that the page shows a winner.
	g, _ := engine.New(engine.DefaultConfig())
	for _, c := range cols {
		_ = g.Play(g.Turn(), c)
	}
	for c := 0; !g.State().Over(); c = (c + 1) % 7 {
		if g.CanPlay(c) && g.Play(g.Turn(), c) == nil {
			cols = append(cols, c)
		}
	}
	r := f.play([]match.Player{{ID: "UALICE", Name: "Alice"}, {ID: "UBOB", Name: "Bob"}}, "", cols)
	url := linkOf(t, r)
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady("#moves")); err != nil {
		t.Fatal(err)
	}
	steps, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`JSON.parse(document.getElementById('game-data').textContent).steps`))
	if err != nil {
		t.Fatal(err)
	}
	check := func(n int) {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[][3]int](visibleDiscs))
		if err != nil {
			t.Fatal(err)
		}
		if want := sorted(boardAt(t, engine.DefaultConfig(), cols, n)); !slices.Equal(sorted(got), want) {
			t.Fatalf("after %d moves the page shows %v, the game %v", n, sorted(got), want)
		}
		status, err := chromedp.Run(ctx, chromedp.TextContent("#status"))
		if err != nil {
			t.Fatal(err)
		}
		if status != steps[n] {
			t.Errorf("after %d moves the status says %q, want %q", n, status, steps[n])
		}
	}
	check(len(cols))
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Home)); err != nil {
		t.Fatal(err)
	}
	check(0)
	for n := 1; n <= len(cols); n++ {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
			t.Fatal(err)
		}
		check(n)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	check(len(cols) - 2)
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	check(len(cols))

	// The analysis button fills a verdict beside every move.
	if err := chromedp.Do(ctx, chromedp.Click("#analyze", chromedp.NodeReady)); err != nil {
		t.Fatal(err)
	}
	filled, err := chromedp.Run(ctx, chromedp.Poll[int](
		`[...document.querySelectorAll('#moves .v')].filter(v => v.textContent.trim() !== '').length === `+itoa(len(cols))+
			` && document.querySelectorAll('#summary p').length`, chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		note, _ := chromedp.Run(ctx, chromedp.TextContent("#analysis-note"))
		t.Fatalf("the verdicts never filled in: %v (note %q)", err, note)
	}
	if filled == 0 {
		t.Error("no summary after the analysis")
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil { // a step back: the last disc marked
		t.Fatal(err)
	}
	screenshot(t, ctx, "game")
	rec, err := f.svc.GamePage(context.Background(), f.key, r.GameID)
	if err != nil || rec.Analysis == nil {
		t.Errorf("the analysis was not kept on the game: %v", err)
	}

	// A phone's width: nothing wider than the screen.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(360, 740), chromedp.Navigate(url), chromedp.WaitReady("#moves")); err != nil {
		t.Fatal(err)
	}
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth`))
	if err != nil || wide {
		t.Errorf("at 360 px the page scrolls sideways (%v)", err)
	}
}

// TestBrowserChannelAndPlayerPages opens the channel and player pages in
// Chromium and checks they list what the store holds.
func TestBrowserChannelAndPlayerPages(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	alice, bob := match.Player{ID: "UALICE", Name: "Alice"}, match.Player{ID: "UBOB", Name: "Bob"}
	carol, dave := match.Player{ID: "UCAROL", Name: "Carol"}, match.Player{ID: "UDAVE", Name: "Dave"}
	f.play([]match.Player{alice, bob}, "", quickWin)
	f.play([]match.Player{bob, alice}, "", quickWin)
	f.play([]match.Player{alice, carol}, "", quickWin)
	f.play([]match.Player{carol, dave}, "", []int{3, 3, 2}) // in progress
	bg := context.Background()
	rated, err := f.store.Ratings(bg, f.key, 0)
	if err != nil {
		t.Fatal(err)
	}
	var wantRows []string
	for _, st := range rated {
		wantRows = append(wantRows, st.Player.Name)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(linkOf(t, f.handle(alice, "leaderboard"))), chromedp.WaitReady("h1")); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "channel")
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('table tbody tr td:nth-child(2)')].map(td => td.textContent.replace(/[\u2068\u2069]/g, ''))`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows, wantRows) {
		t.Errorf("the leaderboard lists %q, the store rates %q", rows, wantRows)
	}
	lists, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[...document.querySelectorAll('ul.games')].map(u => u.children.length)`))
	if err != nil {
		t.Fatal(err)
	}
	active, _ := f.store.Active(bg, f.key)
	playing := 0
	for _, a := range active {
		if a.Status == match.StatusPlaying {
			playing++
		}
	}
	// Recent results: the last finished game of each player (alice–carol
	// for alice and carol, bob–alice for bob; dave has none).
	if want := []int{playing, 2}; !slices.Equal(lists, want) {
		t.Errorf("games in progress and recent results: %v, want %v", lists, want)
	}
	// Follow alice's link to her page.
	if err := chromedp.Do(ctx, chromedp.Click(`//a[contains(., "Alice")]`, chromedp.NodeReady), chromedp.WaitReady("#record")); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "player")
	h2h, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#h2h tbody tr')].map(tr => tr.textContent.replace(/[\u2068\u2069]/g, ''))`))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []match.Player{bob, carol} {
		h, _ := f.store.HeadToHead(bg, f.key, alice.ID, o.ID)
		want := o.Name + itoa(h.AWins) + itoa(h.BWins) + itoa(h.Draws)
		if !slices.Contains(h2h, want) {
			t.Errorf("head to head %q lacks %q", h2h, want)
		}
	}
	st, _ := f.store.Stats(bg, f.key, alice.ID)
	dots, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('svg.chart circle').length`))
	if err != nil || dots != len(st.History) {
		t.Errorf("the chart has %d points, the store %d ratings (%v)", dots, len(st.History), err)
	}
}

// screenshot takes a full-page PNG and compares it loosely with
// testdata/<name>.png (same width, height within a quarter, size within
// a factor of two: fonts and anti-aliasing differ between machines), or
// writes it with -update.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name+".png")
	if *update {
		if err := os.WriteFile(path, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	gi, err1 := png.DecodeConfig(bytes.NewReader(shot))
	wi, err2 := png.DecodeConfig(bytes.NewReader(want))
	if err1 != nil || err2 != nil {
		t.Fatalf("decode screenshots: %v, %v", err1, err2)
	}
	if gi.Width != wi.Width || gi.Height*4 < wi.Height*3 || gi.Height*3 > wi.Height*4 {
		t.Errorf("%s: screenshot %d × %d, testdata %d × %d", name, gi.Width, gi.Height, wi.Width, wi.Height)
	}
	if len(shot)*2 < len(want) || len(shot) > 2*len(want) {
		t.Errorf("%s: screenshot %d bytes, testdata %d", name, len(shot), len(want))
	}
	if t.Failed() {
		_ = os.WriteFile(filepath.Join(t.TempDir(), name+".png"), shot, 0o644)
		t.Logf("%s: the new screenshot is %s", name, strings.TrimSpace(filepath.Join(t.TempDir(), name+".png")))
	}
}
