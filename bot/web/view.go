package web

import (
	"context"
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// page is what the page template draws: the head (title, OpenGraph
// tags) and one of the bodies.
type page struct {
	Lang     lang.Lang
	Dir      string // "ltr": every language the bot speaks is written left to right
	Title    string
	Desc     string
	URL      string // the page's own absolute URL
	Image    string // absolute URL of the board picture, or ""
	ImageAlt string
	Until    string // the date the link expires
	CSS      template.CSS
	JS       template.JS // the game page's script, or ""
	Palette  string      // "standard" or "colourblind": the board's colours

	Game    *gameView
	Channel *channelView
	Player  *playerView
	Error   *errorView
}

// say is l.Say for the views.
func say(l lang.Lang, id string, args lang.Args) string { return l.Say(id, args) }

// name is how a page names a player: their display name, else their id,
// isolated (U+2068 … U+2069) so that right-to-left marks in a name never
// reorder the words around it.
func name(p match.Player) string {
	n := p.Name
	if n == "" {
		n = p.ID
	}
	return "\u2068" + n + "\u2069"
}

// colourIDs are the message ids of the discs' colour words by player, in
// each palette.
var colourIDs = [2][4]string{
	{"web.colour.red", "web.colour.yellow", "web.colour.green", "web.colour.blue"},
	{"web.colour.blue", "web.colour.orange", "web.colour.green", "web.colour.purple"},
}

func colourWord(l lang.Lang, look match.Settings, c engine.Player) string {
	pal := 0
	if look.Palette == match.PaletteColourBlind {
		pal = 1
	}
	if c < engine.Red || c > engine.Blue {
		return ""
	}
	return say(l, colourIDs[pal][c-1], nil)
}

func paletteName(look match.Settings) string {
	if look.Palette == match.PaletteColourBlind {
		return "colourblind"
	}
	return "standard"
}

// view builds the page that link l (whose token is tok) shows.
func (w *Web) view(ctx context.Context, l Link, tok string) (*page, error) {
	p := w.newPage(w.svc.PageLang(ctx, l.Key), l, tok)
	switch l.Kind {
	case KindGame:
		gp, err := w.svc.GamePage(ctx, l.Key, l.ID)
		if err != nil {
			return nil, err
		}
		w.gameView(p, l, gp)
	case KindChannel:
		cp, err := w.svc.ChannelPage(ctx, l.Key)
		if err != nil {
			return nil, err
		}
		w.channelView(p, l, cp)
	case KindPlayer:
		pp, err := w.svc.PlayerPage(ctx, l.Key, l.ID)
		if err != nil {
			return nil, err
		}
		w.playerView(p, l, pp)
	default:
		return nil, match.ErrNoGame
	}
	return p, nil
}

// newPage is the page of link l (token tok) in lg, without a body yet.
func (w *Web) newPage(lg lang.Lang, l Link, tok string) *page {
	return &page{Lang: lg, Dir: "ltr", URL: w.base + strings.TrimPrefix(PagesPath, "/") + tok, CSS: w.assets.css,
		Until: l.Expires.UTC().Format(time.DateOnly), Palette: "standard"}
}

// link is the URL of another page of l's channel, expiring with l: a page
// never hands out a link that outlives its own.
func (w *Web) link(l Link, kind Kind, id string) string {
	return w.url(Link{Kind: kind, Key: l.Key, ID: id, Expires: l.Expires})
}

// gameView is the body of a game page.
type gameView struct {
	Players    []seat
	Result     string
	Size       string
	Score      string
	Board      board
	Moves      []moveRow
	Summary    []string // the analysis's summary lines, when it has one
	CanAnalyze bool
	Data       gameData
	Channel    string // the channel page's URL
}

// seat is a player of a game, with their disc.
type seat struct {
	Name   string
	Colour string
	Class  string // p1 … p4
	Link   string
	Left   bool
}

// moveRow is one move in the move list.
type moveRow struct {
	N       int
	Class   string
	Text    string
	Verdict string
}

// gameData is what the game page's script reads.
type gameData struct {
	N        int      `json:"n"`     // moves
	Steps    []string `json:"steps"` // what the board shows after k moves, for the live region
	Analyze  string   `json:"analyze,omitempty"`
	Running  string   `json:"running"`
	Busy     string   `json:"busy"`
	Failed   string   `json:"failed"`
	Verdicts []string `json:"verdicts,omitempty"`
}

func (w *Web) gameView(p *page, l Link, gp bot.GamePage) {
	lg, g := p.Lang, gp.Game
	cfg := g.Config()
	v := &gameView{Board: drawBoard(g), Channel: w.link(l, KindChannel, "")}
	names := make([]string, len(gp.Players))
	for i, pl := range gp.Players {
		c := engine.Player(i + 1)
		v.Players = append(v.Players, seat{Name: name(pl), Colour: colourWord(lg, gp.Look, c), Class: fmt.Sprintf("p%d", c),
			Link: w.link(l, KindPlayer, pl.ID), Left: g.Left(c) && len(gp.Players) > 2})
		names[i] = name(pl)
	}
	v.Result = resultText(lg, gp)
	v.Size = say(lg, "web.game.size", lang.Args{"Cols": cfg.Cols, "Rows": cfg.Rows, "Connect": cfg.Connect})
	if gp.FirstTo > 1 {
		v.Score = say(lg, "web.game.score", lang.Args{"FirstTo": gp.FirstTo, "Challenger": gp.Score[0], "Opponent": gp.Score[1]})
	}
	history := g.History()
	v.Data = gameData{N: len(history), Steps: make([]string, len(history)+1),
		Running: say(lg, "web.analysis.running", nil), Busy: say(lg, "web.analysis.busy", nil), Failed: say(lg, "web.analysis.failed", nil)}
	v.Data.Steps[0] = say(lg, "web.step.start", lang.Args{"Count": len(history)})
	for i, col := range history {
		c := v.Board.mover[i]
		who := gp.Players[0]
		if int(c) >= 1 && int(c) <= len(gp.Players) {
			who = gp.Players[c-1]
		}
		player := colourWord(lg, gp.Look, c) + " (" + name(who) + ")"
		v.Moves = append(v.Moves, moveRow{N: i + 1, Class: fmt.Sprintf("p%d", c),
			Text: say(lg, "web.move.item", lang.Args{"Player": player, "Column": col + 1})})
		v.Data.Steps[i+1] = say(lg, "web.step.status", lang.Args{"Move": i + 1, "Total": len(history), "Player": player, "Column": col + 1})
	}
	if gp.Analysis != nil {
		verdicts, summary := analysisWords(lg, *gp.Analysis)
		for i := range v.Moves {
			if i < len(verdicts) {
				v.Moves[i].Verdict = verdicts[i]
			}
		}
		v.Summary = summary
	}
	if gp.Analyzable {
		v.CanAnalyze = true
		v.Data.Analyze = p.URL + "/analysis"
	}
	p.Game, p.JS, p.Palette = v, w.assets.js, paletteName(gp.Look)
	p.Title = say(lg, "web.title.game", lang.Args{"Players": strings.Join(names, " · ")})
	p.Desc = strings.TrimSpace(v.Result + " " + v.Size)
	p.Image = p.URL + "/board.png"
	p.ImageAlt = say(lg, "web.board.alt", lang.Args{"Count": len(history)})
}

// resultText says how the game stands.
func resultText(lg lang.Lang, gp bot.GamePage) string {
	g := gp.Game
	winner, won := gp.Winner()
	switch {
	case g.State() == engine.Won && won:
		return say(lg, "web.result.won", lang.Args{"Name": name(winner), "Count": g.Moves()})
	case g.State() == engine.Resigned && won && gp.Finish == match.FinishTimeout:
		return say(lg, "web.result.timeout", lang.Args{"Name": name(winner)})
	case g.State() == engine.Resigned && won:
		return say(lg, "web.result.resigned", lang.Args{"Name": name(winner)})
	case g.State() == engine.Draw:
		return say(lg, "web.result.draw", nil)
	case gp.Status == match.StatusFinished && gp.Finish == match.FinishDraw:
		// A draw offer accepted, the board not full.
		return say(lg, "web.result.drawAgreed", nil)
	case gp.Status == match.StatusFinished:
		return say(lg, "web.result.abandoned", nil)
	}
	return say(lg, "web.result.playing", lang.Args{"Count": g.Moves()})
}

// verdictIDs are the message ids of the verdicts.
var verdictIDs = map[solver.Verdict]string{
	solver.VerdictUnknown: "web.verdict.unknown",
	solver.KeptWin:        "web.verdict.keptWin",
	solver.KeptDraw:       "web.verdict.keptDraw",
	solver.ThrewWin:       "web.verdict.threwWin",
	solver.DrawToLoss:     "web.verdict.drawToLoss",
	solver.StillLost:      "web.verdict.stillLost",
	solver.MissedWin:      "web.verdict.missedWin",
	solver.IntoLoss:       "web.verdict.intoLoss",
}

// analysisWords are a's verdict on each move (a mark and words, as the
// chat's analysis marks them) and its summary lines.
func analysisWords(lg lang.Lang, a solver.Analysis) (verdicts, summary []string) {
	for _, m := range a.Moves {
		id, ok := verdictIDs[m.Verdict]
		if !ok {
			id = "web.verdict.unknown"
		}
		text := say(lg, id, nil)
		switch {
		case m.Verdict.Mistake():
			text = "✗ " + text
		case m.Only:
			text = "! " + say(lg, "web.verdict.only", nil)
		case m.Verdict == solver.KeptWin || m.Verdict == solver.KeptDraw:
			text = "✓ " + text
		case m.Verdict == solver.StillLost:
			text = "· " + text
		default:
			text = "? " + text
		}
		verdicts = append(verdicts, text)
	}
	if a.Exact {
		summary = append(summary, say(lg, "web.analysis.exact", nil))
	} else {
		summary = append(summary, say(lg, "web.analysis.partial", nil))
	}
	if a.Turning >= 0 && a.Turning < len(a.Moves) {
		summary = append(summary, say(lg, "web.analysis.turning", lang.Args{"Move": a.Turning + 1}))
	} else if a.Proven == len(a.Moves) {
		summary = append(summary, say(lg, "web.analysis.noTurning", nil))
	}
	return verdicts, summary
}

// channelView is the body of a channel page.
type channelView struct {
	Rated, Unrated []standingRow
	Seasons        []seasonRow
	Playing        []gameRow
	Recent         []gameRow
}

type standingRow struct {
	Rank                string
	Name, Link          string
	Rating              string
	Provisional         bool
	Wins, Losses, Draws int
}

type seasonRow struct {
	Title  string
	Podium []standingRow
}

type gameRow struct {
	Link, Players, Result, Date string
}

// rank is place i (0-based) as shown: a number (an emoji medal would
// need a font the reader may not have).
func rank(i int) string { return fmt.Sprint(i + 1) }

func (w *Web) standing(l Link, i int, st match.Standing) standingRow {
	r := standingRow{Rank: rank(i), Name: name(st.Player), Link: w.link(l, KindPlayer, st.Player.ID),
		Wins: st.Wins, Losses: st.Losses, Draws: st.Draws}
	if st.Rating != nil {
		r.Rating = fmt.Sprintf("%.0f", math.Round(st.Rating.Rating.Rating))
		r.Provisional = st.Rating.Provisional()
	}
	return r
}

func (w *Web) gameRows(l Link, lg lang.Lang, gs []bot.GameSummary) []gameRow {
	var rows []gameRow
	for _, g := range gs {
		names := make([]string, len(g.Players))
		for i, p := range g.Players {
			names[i] = name(p)
		}
		r := gameRow{Link: w.link(l, KindGame, g.ID), Players: strings.Join(names, " · "), Date: g.Updated.UTC().Format(time.DateOnly)}
		switch {
		case g.Winner.ID != "":
			r.Result = say(lg, "web.row.won", lang.Args{"Name": name(g.Winner)})
		case g.Status == match.StatusFinished && g.Finish == match.FinishDraw:
			r.Result = say(lg, "web.row.draw", nil)
		case g.Status == match.StatusFinished:
			r.Result = say(lg, "web.result.abandoned", nil)
		default:
			r.Result = say(lg, "web.result.playing", lang.Args{"Count": g.Moves})
		}
		rows = append(rows, r)
	}
	return rows
}

func (w *Web) channelView(p *page, l Link, cp bot.ChannelPage) {
	lg := p.Lang
	v := &channelView{Playing: w.gameRows(l, lg, cp.Playing), Recent: w.gameRows(l, lg, cp.Recent)}
	for i, st := range cp.Rated {
		v.Rated = append(v.Rated, w.standing(l, i, st))
	}
	for i, st := range cp.Unrated {
		v.Unrated = append(v.Unrated, w.standing(l, i, st))
	}
	for _, se := range cp.Seasons {
		s := seasonRow{Title: say(lg, "web.season.title", lang.Args{"Number": se.Number, "Date": se.Ended.UTC().Format(time.DateOnly)})}
		for i, st := range se.Podium() {
			s.Podium = append(s.Podium, w.standing(l, i, st))
		}
		v.Seasons = append(v.Seasons, s)
	}
	p.Channel = v
	p.Title = say(lg, "web.title.channel", nil)
	p.Desc = say(lg, "web.channel.desc", lang.Args{"Count": len(cp.Rated) + len(cp.Unrated)})
}

// playerView is the body of a player page.
type playerView struct {
	Name                       string
	Rating, Deviation          string
	Provisional                bool
	Wins, Losses, Draws, Games int
	WinRate                    string
	Streak                     string
	Chart                      *chart
	HeadToHead                 []h2hRow
	Recent                     []gameRow
	Channel                    string
}

type h2hRow struct {
	Name, Link          string
	Wins, Losses, Draws int
}

func (w *Web) playerView(p *page, l Link, pp bot.PlayerPage) {
	lg, st := p.Lang, pp.Standing
	v := &playerView{Name: name(st.Player), Wins: st.Wins, Losses: st.Losses, Draws: st.Draws, Games: st.Games(),
		WinRate: fmt.Sprintf("%.0f%%", 100*st.WinRate()), Channel: w.link(l, KindChannel, ""), Recent: w.gameRows(l, lg, pp.Games)}
	if r := st.Rating; r != nil {
		v.Rating = fmt.Sprintf("%.0f", math.Round(r.Rating.Rating))
		v.Deviation = fmt.Sprintf("%.0f", math.Round(r.Deviation))
		v.Provisional = r.Provisional()
		switch {
		case r.Streak > 0:
			v.Streak = say(lg, "web.player.streakWon", lang.Args{"Count": r.Streak})
		case r.Streak < 0:
			v.Streak = say(lg, "web.player.streakLost", lang.Args{"Count": -r.Streak})
		}
	}
	if len(st.History) > 1 {
		v.Chart = drawChart(st.History)
		v.Chart.Desc = say(lg, "web.player.chartAlt", lang.Args{"Count": len(st.History),
			"Low": v.Chart.Low, "High": v.Chart.High})
	}
	for _, h := range pp.HeadToHead {
		v.HeadToHead = append(v.HeadToHead, h2hRow{Name: name(h.Opponent), Link: w.link(l, KindPlayer, h.Opponent.ID),
			Wins: h.AWins, Losses: h.BWins, Draws: h.Draws})
	}
	p.Player = v
	p.Title = say(lg, "web.title.player", lang.Args{"Name": v.Name})
	p.Desc = say(lg, "web.player.desc", lang.Args{"Wins": st.Wins, "Losses": st.Losses, "Draws": st.Draws})
}
