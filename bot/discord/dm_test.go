package discord

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/adaptertest"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// Where the tests of a user-installed app play, with the payload shapes
// Discord documents (developers/interactions/receiving-and-responding.mdx):
// a DM or group DM carries context 2, user (no member, no guild_id),
// channel with its type and recipients, authorizing_integration_owners
// {"1": the installing user}, app_permissions, entitlements.
type venue struct {
	name    string
	context int    // -1: none sent (an older payload)
	guild   string // "" in a DM
	channel string
	// chanType is the channel's type: 1 DM, 3 group DM, 0 a server's
	// text channel.
	chanType int
	members  []string // the DM's recipients
	owners   map[string]any
	perms    string // the member's permissions, in a server
	key      match.Key
}

const (
	dmChan    = "710000000000000001"
	groupChan = "720000000000000001"
	installer = "UA" // the user who installed the app
)

var (
	oneToOne = venue{name: "1:1 DM", context: 2, channel: dmChan, chanType: 1, members: []string{"UA", "UB"},
		owners: map[string]any{"1": installer}, key: match.Key{Platform: Platform, Workspace: guestDM, Channel: dmChan}}
	groupOf3 = venue{name: "group DM of 3", context: 2, channel: groupChan, chanType: 3, members: []string{"UA", "UB", "UC"},
		owners: map[string]any{"1": installer}, key: match.Key{Platform: Platform, Workspace: guestDM, Channel: groupChan}}
	inGuild = venue{name: "server install", context: 0, guild: guildID, channel: chanID, chanType: 0,
		owners: map[string]any{"0": guildID, "1": installer}, key: match.Key{Platform: Platform, Workspace: guildID, Channel: chanID}}
)

// in is an interaction of type typ by userID at v.
func (v venue) in(f *fixture, typ int, userID string, data map[string]any) map[string]any {
	f.n++
	in := map[string]any{
		"id": fmt.Sprintf("5100000000000%05d", f.n), "application_id": appID, "type": typ,
		"token": fmt.Sprintf("tok-%d", f.n), "channel_id": v.channel, "version": 1, "data": data,
		"locale": "en-US", "entitlements": []any{}, "entitlement_sku_ids": []any{},
		"attachment_size_limit": 10485760, "app_permissions": "180224",
	}
	if v.context >= 0 {
		in["context"] = v.context
	}
	if v.owners != nil {
		in["authorizing_integration_owners"] = v.owners
	}
	ch := map[string]any{"id": v.channel, "type": v.chanType}
	if v.guild != "" {
		in["guild_id"], in["guild_locale"] = v.guild, "en-US"
		ch["guild_id"] = v.guild
		m := map[string]any{"user": userJSON(userID), "roles": []any{}, "nick": nil}
		if v.perms != "" {
			m["permissions"] = v.perms
		}
		in["member"] = m
	} else {
		in["user"] = userJSON(userID)
		var rs []any
		for _, id := range v.members {
			if id != userID {
				rs = append(rs, userJSON(id))
			}
		}
		ch["recipients"] = rs
	}
	in["channel"] = ch
	return in
}

// slash is /connect4 <sub> by userID at v.
func (v venue) slash(f *fixture, userID, sub string, opts []map[string]any, users ...map[string]any) gotResponse {
	f.t.Helper()
	base := f.slashIn(userID, sub, opts, users...)
	f.n--
	return f.send(v.in(f, 2, userID, base["data"].(map[string]any)))
}

// click clicks label on m as userID at v.
func (v venue) click(f *fixture, userID string, m gotResponse, label string) gotResponse {
	f.t.Helper()
	in := v.in(f, 3, userID, map[string]any{"custom_id": m.button(f.t, label).CustomID, "component_type": 2})
	in["message"] = map[string]any{"id": "600000000000000001", "channel_id": v.channel, "flags": m.Data.Flags}
	return f.send(in)
}

// shown is the message the response r leads to: r itself, or after a
// deferral the webhook edit that follows it (a picture), as a message.
func (f *fixture) shown(t *testing.T, r gotResponse) gotResponse {
	t.Helper()
	if r.Type != typeDeferUpdate && r.Type != typeDeferMessage {
		return r
	}
	call := f.webhookCall(t)
	if call.Method != http.MethodPatch || !strings.HasSuffix(call.Path, "/messages/@original") {
		t.Fatalf("after a deferral: %s %s, want the edit of the original message", call.Method, call.Path)
	}
	got := parseV2(t, call)
	if _, ok := got.files["files[0]"]; !ok {
		t.Fatalf("the edit after a deferral carries no picture: %s", got.raw)
	}
	m := got.asResponse(t)
	texts, _ := got.container(t)
	m.Data.Content = strings.Join(texts, "\n")
	return m
}

// noBotCalls fails if the adapter called Discord with its bot token on
// its own (channel messages): in a guest channel it has no bot there.
func noBotCalls(t *testing.T, calls []fakeCall) {
	t.Helper()
	for _, c := range calls {
		if strings.Contains(c.Path, "/channels/") {
			t.Fatalf("%s %s: a call with the bot token where the app is a guest", c.Method, c.Path)
		}
	}
}

// TestUserInstalledFlow plays the whole flow where a user installed the
// app: in a 1:1 DM and in a group DM of 3 (context 2), and the same in a
// server that installed it: a challenge, a stale click, the accept, a game
// with pictures and a takeback, to a win with its replay, and the rematch
// offer. In a DM no call uses the bot token.
func TestUserInstalledFlow(t *testing.T) {
	for _, v := range []venue{oneToOne, groupOf3, inGuild} {
		t.Run(v.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, st bot.Store) {
				f := newFixtureWith(t, st, 0, func(c *Config) { c.Pictures = true })
				f.a.pictureBudget = 0 // no reply in time for its picture to go in the response: the deferred upload
				c := v.slash(f, "UA", "challenge", []map[string]any{opt("opponent", 6, "UB")}, userJSON("UB"))
				want(t, c, typeMessage, 0, "<@UA> challenges <@UB>")
				recs, err := st.Active(t.Context(), v.key)
				if err != nil || len(recs) != 1 {
					t.Fatalf("records under %v: %d, %v; want the challenge", v.key, len(recs), err)
				}
				if len(v.members) == 3 {
					// The third member of the group may not answer a challenge to another.
					want(t, v.click(f, "UC", c, "Accept"), typeMessage, flagEphemeral, "<@UB>")
				}
				board := f.shown(t, v.click(f, "UB", c, "Accept"))
				if !strings.Contains(board.content(), "accepted") {
					t.Fatalf("after accept: %q", board.content())
				}
				// The challenge's message, clicked again: stale.
				stale := v.click(f, "UB", c, "Accept")
				if stale.Type != typeMessage || stale.Data.Flags != flagEphemeral {
					t.Fatalf("stale click: type %d %q, want an ephemeral note", stale.Type, stale.content())
				}

				board = f.shown(t, v.click(f, "UA", board, "1"))
				board = f.shown(t, v.click(f, "UB", board, "2"))
				if !strings.Contains(board.content(), "column 2") {
					t.Fatalf("after yellow's move: %q", board.content())
				}
				// Yellow takes its move back; red allows it.
				tb := f.shown(t, v.slash(f, "UB", "takeback", nil))
				if !strings.Contains(tb.content(), "take") {
					t.Fatalf("takeback request: %q", tb.content())
				}
				board = f.shown(t, v.click(f, "UA", tb, "Allow takeback"))
				if !strings.Contains(board.content(), "allowed the takeback") {
					t.Fatalf("takeback allowed: %q", board.content())
				}
				for i, col := range []string{"3", "1", "2", "1", "2", "1"} {
					who := []string{"UB", "UA"}[i%2]
					board = f.shown(t, v.click(f, who, board, col))
				}
				if !strings.Contains(board.content(), "<@UA> wins!") {
					t.Fatalf("final board: %q", board.content())
				}
				var calls []fakeCall
				adaptertest.WaitFor(t, "the replay follow-up", func() bool {
					calls = append(calls, f.take()...)
					for _, c := range calls {
						if c.Method == http.MethodPost && strings.Contains(c.Path, "/webhooks/") {
							return true
						}
					}
					return false
				})
				if Guest(v.key) {
					noBotCalls(t, calls)
				}
				offer := v.click(f, "UB", board, "Rematch")
				if offer.Type == typeDeferUpdate || offer.Type == typeDeferMessage {
					offer = f.shown(t, offer)
				}
				if !strings.Contains(strings.ToLower(offer.content()), "rematch") {
					t.Fatalf("rematch offer: type %d %q", offer.Type, offer.content())
				}
				if Guest(v.key) {
					noBotCalls(t, f.fake.take())
				}
			})
		})
	}
}

// TestGuestTimersWaitForTheNextClick: the worker parks a guest channel's
// timed events (no call, no write), and the first click after
// CONNECT4_CHALLENGE_TTL settles the expiry and shows it on the clicked
// message. In a server the worker still carries them out.
func TestGuestTimersWaitForTheNextClick(t *testing.T) {
	const ttl = 10 * time.Minute
	clock := storetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	st := storetest.NewMemory(t, sessions.Options{Now: clock.Now})
	f := newFixtureOpts(t, st, bot.Options{AI: testAI(0), ChallengeTTL: ttl, Now: clock.Now},
		func(c *Config) { c.BotToken = "bot-token" })
	c := oneToOne.slash(f, "UA", "challenge", []map[string]any{opt("opponent", 6, "UB")}, userJSON("UB"))
	want(t, c, typeMessage, 0, "challenges")
	recs, _ := st.Active(t.Context(), oneToOne.key)
	if len(recs) != 1 {
		t.Fatal("no challenge stored")
	}
	id := recs[0].ID
	f.fake.take()

	clock.Advance(ttl + time.Minute)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	parked := make(chan string, 8)
	go func() {
		defer close(done)
		f.a.svc.RunSchedule(ctx, st, map[string]bot.Notifier{Platform: f.a}, bot.WorkerOptions{Poll: 5 * time.Millisecond,
			Hooks: bot.WorkerHooks{Due: func(kind string) { parked <- kind }}})
	}()
	select {
	case <-parked:
	case <-time.After(5 * time.Second):
		t.Fatal("the worker never claimed the expiry")
	}
	time.Sleep(50 * time.Millisecond) // a few more polls: nothing is claimed again
	cancel()
	<-done
	if n := len(parked); n != 0 {
		t.Errorf("the parked entry was claimed %d more times", n)
	}
	rec, err := st.Load(t.Context(), oneToOne.key, id)
	if err != nil || rec.Status != match.StatusPending || rec.Timers[0].Fired {
		t.Fatalf("after the worker: %+v, %v; want the challenge untouched", rec, err)
	}
	noBotCalls(t, f.fake.take())
	if st.Pending() != 1 {
		t.Fatalf("%d schedule entries, want the expiry's still there", st.Pending())
	}

	m := oneToOne.click(f, "UB", c, "Accept")
	want(t, m, typeUpdate, 0, "The challenge from <@UA> to <@UB> expired before it was answered.")
	if len(m.Data.Components) != 0 {
		t.Fatalf("the expired challenge keeps buttons: %+v", m.Data.Components)
	}
	rec, err = st.Load(t.Context(), oneToOne.key, id)
	if err != nil || rec.Finish != match.FinishExpired {
		t.Fatalf("after the click: %+v, %v; want it expired", rec, err)
	}
	// The entry, still leased to the worker, goes at its next look,
	// without a call.
	clock.Advance(time.Hour + time.Minute)
	ctx, cancel = context.WithCancel(t.Context())
	done = make(chan struct{})
	go func() {
		defer close(done)
		f.a.svc.RunSchedule(ctx, st, map[string]bot.Notifier{Platform: f.a}, bot.WorkerOptions{Poll: 5 * time.Millisecond})
	}()
	adaptertest.WaitFor(t, "the settled entry to go", func() bool { return st.Pending() == 0 })
	cancel()
	<-done
	noBotCalls(t, f.fake.take())
	// A second click: the challenge is over, said to the clicker alone.
	want(t, oneToOne.click(f, "UB", c, "Accept"), typeMessage, flagEphemeral)
}

// TestGuestRefusals: a server whose member may not use external apps gets
// the one line about forced-ephemeral answers; an unknown context, a
// server context without a server, and an interaction with neither member
// nor user are refused, never played.
func TestGuestRefusals(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	forced := venue{name: "external apps off", context: 0, guild: guildID, channel: chanID,
		owners: map[string]any{"1": installer}, perms: "2048"}
	r := forced.slash(f, "UA", "challenge", []map[string]any{opt("opponent", 6, "UB")}, userJSON("UB"))
	want(t, r, typeMessage, flagEphemeral, "only you")
	if strings.Contains(r.content(), "\n") {
		t.Fatalf("the forced-ephemeral note is not one line: %q", r.content())
	}
	if f.record(guildID) != nil || f.record(guestPrefix+guildID) != nil {
		t.Fatal("a game was started where nobody else would see it")
	}
	// The same member with Use External Apps plays, in a channel of its own.
	forced.perms = fmt.Sprint(uint64(2048) | permUseExternalApps)
	want(t, forced.slash(f, "UA", "challenge", []map[string]any{opt("opponent", 6, "UB")}, userJSON("UB")), typeMessage, 0, "challenges")
	if f.record(guestPrefix+guildID) == nil {
		t.Fatal("no challenge under the guest key of the server")
	}

	unknown := oneToOne
	unknown.context = 7
	want(t, unknown.slash(f, "UA", "board", nil), typeMessage, flagEphemeral, "kind of conversation")

	for name, in := range map[string]map[string]any{
		"server context without a server": func() map[string]any {
			in := oneToOne.in(f, 2, "UA", map[string]any{"name": "connect4", "type": 1})
			in["context"] = 0
			return in
		}(),
		"neither member nor user": func() map[string]any {
			in := oneToOne.in(f, 2, "UA", map[string]any{"name": "connect4", "type": 1})
			delete(in, "user")
			return in
		}(),
	} {
		body := mustJSON(t, in)
		w := f.do(body, sign(f.priv, fmt.Sprint(time.Now().Unix()), body))
		if w.Code != http.StatusBadRequest {
			t.Errorf("%s: %d %q, want 400", name, w.Code, w.Body.String())
		}
	}
}

// TestGuestTimeoutAndTakebackSettled: in a group DM, a click after the
// turn timeout shows the timeout (with the Claim button) on the clicked
// message, then the reminder that was due as a message and the click's own
// refusal as an ephemeral follow-up; a typed
// command after a takeback request lapsed posts the game as it now is
// after its reply. Nothing uses the bot token.
func TestGuestTimeoutAndTakebackSettled(t *testing.T) {
	clock := storetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	st := storetest.NewMemory(t, sessions.Options{Now: clock.Now})
	f := newFixtureOpts(t, st, bot.Options{AI: testAI(0), ChallengeTTL: 10 * time.Minute, TurnTimeout: time.Hour,
		RemindAfter: 30 * time.Minute, Now: clock.Now},
		func(c *Config) { c.BotToken = "bot-token" })
	v := groupOf3
	c := v.slash(f, "UA", "challenge", []map[string]any{opt("opponent", 6, "UB")}, userJSON("UB"))
	board := v.click(f, "UB", c, "Accept")
	want(t, board, typeUpdate, 0, "accepted")
	board = v.click(f, "UA", board, "1")
	want(t, board, typeUpdate, 0, "column 1")
	f.fake.take()

	clock.Advance(time.Hour + time.Minute)
	// UA clicks out of turn: UB has not moved for an hour.
	m := v.click(f, "UA", board, "2")
	want(t, m, typeUpdate, 0, "<@UB> has not moved for")
	m.button(t, "Claim")
	var calls []fakeCall
	adaptertest.WaitFor(t, "the reminder's and the refusal's follow-ups", func() bool {
		calls = append(calls, f.fake.take()...)
		return len(calls) >= 2
	})
	noBotCalls(t, calls)
	for i, w := range []struct {
		text      string
		ephemeral bool
	}{{"it's your move in your Connect Four game", false}, {"not your turn", true}} {
		c := calls[i]
		if c.Method != http.MethodPost || !strings.Contains(c.Path, "/webhooks/"+appID+"/tok-") ||
			strings.Contains(string(c.Body), `"flags":64`) != w.ephemeral || !strings.Contains(string(c.Body), w.text) {
			t.Fatalf("follow-up %d: %s %s %s, want %q (ephemeral %v)", i, c.Method, c.Path, c.Body, w.text, w.ephemeral)
		}
	}

	// UB moves, then asks to take it back; nobody answers in time.
	board = v.click(f, "UB", m, "2")
	want(t, board, typeUpdate, 0, "column 2")
	v.slash(f, "UB", "takeback", nil)
	f.fake.take()
	clock.Advance(11 * time.Minute)
	r := v.slash(f, "UC", "leaderboard", nil)
	if r.Type != typeMessage {
		t.Fatalf("leaderboard: type %d", r.Type)
	}
	calls = nil
	adaptertest.WaitFor(t, "the settled game posted", func() bool {
		calls = append(calls, f.fake.take()...)
		return len(calls) > 0
	})
	noBotCalls(t, calls)
	if c := calls[0]; c.Method != http.MethodPost || strings.Contains(string(c.Body), `"flags":64`) ||
		!strings.Contains(string(c.Body), "takeback request expired") {
		t.Fatalf("follow-up %s %s %s, want the game posted with the lapsed takeback", c.Method, c.Path, c.Body)
	}
}

// TestBotDMAndOwnersManage: the DM with the app's bot (context 1) of a
// user install is a channel the bot reaches (keyed "dm"), where an AI game
// plays; in a group DM any member manages the channel (settings, a new
// season), while in a server the same settings need Manage Channels.
func TestBotDMAndOwnersManage(t *testing.T) {
	st := sessionsMemory()
	f := newFixture(t, st, 0)
	botDM := venue{name: "bot DM", context: 1, channel: "730000000000000001", chanType: 1, members: []string{"UA"},
		owners: map[string]any{"1": "UA"}}
	want(t, botDM.slash(f, "UA", "ai", nil), typeMessage, 0, "<@UA>")
	k := match.Key{Platform: Platform, Workspace: dmWorkspace, Channel: botDM.channel}
	if recs, err := st.Active(t.Context(), k); err != nil || len(recs) != 1 || Guest(k) || !f.a.Reaches(k) {
		t.Fatalf("bot DM: %d records under %v (%v); want the AI game in a channel the bot reaches", len(recs), k, err)
	}

	settings := []map[string]any{opt("board", 3, "emoji")}
	want(t, groupOf3.slash(f, "UC", "settings", settings), typeMessage, 0, "emoji")
	if r := groupOf3.slash(f, "UC", "new_season", nil); strings.Contains(r.content(), "manage") {
		t.Fatalf("new season in a group DM: %q, want no manager check", r.content())
	}
	server := inGuild
	server.perms = "2048" // Send Messages only
	want(t, server.slash(f, "UC", "settings", settings), typeMessage, flagEphemeral, "manage this channel")
}
