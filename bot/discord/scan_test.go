package discord

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/discord/discordtest"
)

// scanCases are bodies for scanInteraction, and whether it reads them
// itself (true) or leaves them to json.Unmarshal (false).
func scanCases(tb testing.TB) []struct {
	name    string
	body    []byte
	scanned bool
} {
	f := &fixture{}
	loadClick := discordtest.Interaction{ID: "4g1", ApplicationID: appID, Type: discordtest.TypeMessageComponent,
		Token: "loadtest-g1-7", Version: 1, GuildID: "loadtest", ChannelID: "c1",
		Member: &discordtest.Member{User: discordtest.User{ID: "u1", Username: "one"}},
		Data:   discordtest.Click("c4:drop:b1:4:3"), Message: &discordtest.MessageRef{ID: "3g1", ChannelID: "c1"}}
	dmClick := oneToOne.in(f, 3, "UB", map[string]any{"custom_id": "c4:drop:g1:0:3", "component_type": 2})
	guildClick := inGuild.in(f, 3, "UB", map[string]any{"custom_id": "c4:drop:g1:0:3", "component_type": 2})
	withResolved := f.slashIn("UA", "challenge", []map[string]any{opt("opponent", 6, "UB"), opt("rows", 4, 8)},
		map[string]any{"id": "UB", "username": "ub", "global_name": "Bee", "bot": true})
	loadSettings := discordtest.Interaction{ID: "4g1", ApplicationID: appID, Type: discordtest.TypeApplicationCommand,
		Token: "loadtest-g1-1", Version: 1, GuildID: "loadtest", ChannelID: "c1",
		Member: &discordtest.Member{User: discordtest.User{ID: "u1", Username: "one"}, Permissions: "16"},
		Data:   discordtest.Slash("settings", []discordtest.Option{{Name: "board", Type: 3, Value: "emoji"}})}
	deep := `{"type":3,"data":{"custom_id":"x"},"x":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`
	return []struct {
		name    string
		body    []byte
		scanned bool
	}{
		{"realistic click", realisticClick(tb), true},
		{"load test click", mustJSON(tb, loadClick), true},
		{"DM click", mustJSON(tb, dmClick), true},
		{"server click of a user install", mustJSON(tb, guildClick), true},
		{"ping", []byte(`{"type":1,"id":"1","application_id":"9","token":"t"}`), true},
		{"empty object", []byte(`{}`), true},
		{"nulls", []byte(`{"type":3,"id":"1","member":{"user":{"id":"U","global_name":null,"bot":null},"nick":null,"permissions":null},` +
			`"data":{"custom_id":"x","name":null},"guild_locale":null,"context":null,"message":null,"user":null,"entitlements":null,` +
			`"authorizing_integration_owners":null,"locale":null}`), true},
		{"a null after a value", []byte(`{"id":"1","id":null,"type":3,"type":null,"member":{"user":{"id":"A"}},"member":null,"data":{"custom_id":"x"}}`), true},
		{"a value after a null after a value", []byte(`{"type":3,"member":{"user":{"id":"A","username":"a"},"permissions":"8"},"member":null,"member":{"user":{"global_name":"B"}},` +
			`"user":{"id":"A"},"user":null,"user":{"username":"b"},"data":{"custom_id":"x"},"data":null,"data":{"name":"n"},` +
			`"message":{"id":"5","flags":64},"message":null,"message":{"id":"6"}}`), true},
		{"repeated objects merge", []byte(`{"type":3,"member":{"user":{"id":"A"}},"member":{"permissions":"8"},` +
			`"authorizing_integration_owners":{"0":"G"},"authorizing_integration_owners":{"1":"U"},"data":{"custom_id":"x"},"data":{"name":"n"},"type":2}`), true},
		{"white space", []byte(" \t\r\n{ \"type\" : 3 ,\n\"data\" :{ \"custom_id\" : \"x\" } , \"entitlements\" : [ ] ,\"context\": 2 , \"member\":{\"user\":{\"bot\": true }}} \n"), true},
		{"escapes in skipped strings", []byte(`{"type":3,"data":{"custom_id":"x"},"message":{"id":"5","content":"a\nb \u00e9 \"q\" \\ \/ \b\f\r\t \uD83D\uDE00"}}`), true},
		{"unicode in kept strings", []byte(`{"type":3,"data":{"custom_id":"x"},"member":{"user":{"id":"U","global_name":"Zoë 🎉"}}}`), true},
		{"skipped numbers and literals", []byte(`{"type":3,"data":{"custom_id":"x","component_type":2,"n":-1.5e+3,"z":0,"f":0.25,"e":1E9,"m":-0,"t":true,"u":false,"v":null,"w":[1,{"a":[]},"s"]}}`), true},
		{"flags", []byte(`{"type":3,"data":{"custom_id":"x"},"message":{"id":"5","flags":32768}}`), true},
		{"zero", []byte(`{"type":0,"context":0}`), true},
		{"invalid UTF-8 in a skipped string", []byte("{\"type\":3,\"data\":{\"custom_id\":\"x\"},\"x\":\"\xff\"}"), true},

		{"challenge", mustJSON(tb, withResolved), true},
		{"ai", mustJSON(tb, f.slashIn("UA", "ai", []map[string]any{opt("level", 3, "hard")})), true},
		{"settings of the load test", mustJSON(tb, loadSettings), true},
		{"DM command", mustJSON(tb, oneToOne.in(f, 2, "UA", map[string]any{"name": "connect4", "type": 1,
			"options": []any{map[string]any{"name": "board", "type": 1}}})), true},
		{"option values", []byte(`{"type":2,"data":{"name":"connect4","options":[{"name":"s","type":1,"options":[` +
			`{"name":"a","value":"x"},{"name":"b","value":-1.5e3},{"name":"c","value":true},{"name":"d","value":null},` +
			`{"name":"e","value":false,"value":7},{"name":"f","value":0,"focused":true}]}]}}`), true},
		{"empty options and resolved", []byte(`{"type":2,"data":{"name":"connect4","options":[],"resolved":{},"options":null,"options":[]}}`), true},
		{"resolved users and members", []byte(`{"type":2,"data":{"resolved":{"members":{"U1":{"nick":null}},"users":{"U1":{"id":"U1","bot":true},"U2":null},"users":{"U3":{"id":"U3"}}}}}`), true},
		{"option value an object", []byte(`{"type":2,"data":{"options":[{"name":"a","value":{"x":1}}]}}`), false},
		{"option value a list", []byte(`{"type":2,"data":{"options":[{"name":"a","value":[1]}]}}`), false},
		{"option value out of range", []byte(`{"type":2,"data":{"options":[{"name":"a","value":1e400}]}}`), false},
		{"repeated options", []byte(`{"type":2,"data":{"options":[{"name":"a"}],"options":[{"type":1}]}}`), false},
		{"null option", []byte(`{"type":2,"data":{"options":[null]}}`), false},
		{"options nested deep", []byte(`{"type":2,"data":{"options":[{"options":[{"options":[{"options":[{"options":[]}]}]}]}]}}`), false},
		{"repeated resolved", []byte(`{"type":2,"data":{"resolved":{},"resolved":{}}}`), false},
		{"resolved user as a string", []byte(`{"type":2,"data":{"resolved":{"users":{"U1":"x"}}}}`), false},
		{"escape in a kept string", []byte(`{"type":3,"data":{"custom_id":"c4:drop\u003ag1:0:3"}}`), false},
		{"escape in a key", []byte(`{"type":3,"data":{"custom\u005fid":"c4:drop:g1:0:3"}}`), false},
		{"key in capitals", []byte(`{"type":3,"ID":"1","data":{"custom_id":"x"}}`), false},
		{"key with a Kelvin sign", []byte("{\"type\":3,\"to\u212aen\":\"t\",\"data\":{\"custom_id\":\"x\"}}"), false},
		{"key with a hyphen", []byte(`{"type":3,"data":{"custom-id":"x"}}`), false},
		{"type as a string", []byte(`{"type":"3","data":{"custom_id":"x"}}`), false},
		{"type out of range", []byte(`{"type":256,"data":{"custom_id":"x"}}`), false},
		{"negative type", []byte(`{"type":-1,"data":{"custom_id":"x"}}`), false},
		{"fractional type", []byte(`{"type":3.0,"data":{"custom_id":"x"}}`), false},
		{"type with an exponent", []byte(`{"type":3e0,"data":{"custom_id":"x"}}`), false},
		{"type with a leading zero", []byte(`{"type":03,"data":{"custom_id":"x"}}`), false},
		{"negative context", []byte(`{"type":3,"context":-1,"data":{"custom_id":"x"}}`), false},
		{"huge flags", []byte(`{"type":3,"data":{"custom_id":"x"},"message":{"flags":123456789012345678}}`), false},
		{"bot as a string", []byte(`{"type":3,"user":{"bot":"true"},"data":{"custom_id":"x"}}`), false},
		{"id as a number", []byte(`{"type":3,"id":1,"data":{"custom_id":"x"}}`), false},
		{"entitlements", []byte(`{"type":3,"entitlements":[{"id":"1","sku_id":"2"}],"data":{"custom_id":"x"}}`), false},
		{"owner null", []byte(`{"type":3,"authorizing_integration_owners":{"0":null},"data":{"custom_id":"x"}}`), false},
		{"invalid UTF-8 in a kept string", []byte("{\"type\":3,\"data\":{\"custom_id\":\"\xff\"}}"), false},
		{"control character", []byte("{\"type\":3,\"data\":{\"custom_id\":\"x\"},\"x\":\"a\tb\"}"), false},
		{"bad escape", []byte(`{"type":3,"data":{"custom_id":"x"},"x":"\x"}`), false},
		{"short unicode escape", []byte(`{"type":3,"data":{"custom_id":"x"},"x":"\u12"}`), false},
		{"trailing comma", []byte(`{"type":3,"data":{"custom_id":"x"},}`), false},
		{"trailing comma in an array", []byte(`{"type":3,"data":{"custom_id":"x"},"x":[1,]}`), false},
		{"missing brace", []byte(`{"type":3,"data":{"custom_id":"x"}`), false},
		{"trailing garbage", []byte(`{"type":3,"data":{"custom_id":"x"}} x`), false},
		{"two objects", []byte(`{"type":3}{}`), false},
		{"bad literal", []byte(`{"type":3,"data":{"custom_id":"x"},"x":tru}`), false},
		{"bare minus", []byte(`{"type":3,"data":{"custom_id":"x"},"x":-}`), false},
		{"fraction without digits", []byte(`{"type":3,"data":{"custom_id":"x"},"x":1.}`), false},
		{"deep nesting", []byte(deep), false},
		{"null", []byte(`null`), false},
		{"array", []byte(`[]`), false},
		{"empty", nil, false},
		{"a string", []byte(`"x"`), false},
	}
}

// TestScanMatchesUnmarshal checks that scanInteraction reads what
// json.Unmarshal reads on the shapes Discord sends, and leaves to it what
// it does not read itself, invalid input above all.
func TestScanMatchesUnmarshal(t *testing.T) {
	for _, c := range scanCases(t) {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := scanInteraction(c.body); ok != c.scanned {
				t.Fatalf("scanInteraction(%q) read it: %v, want %v", c.body, ok, c.scanned)
			}
			checkScan(t, c.body)
		})
	}
}

// checkScan fails if scanInteraction reads body other than json.Unmarshal.
func checkScan(t *testing.T, body []byte) {
	t.Helper()
	got, ok := scanInteraction(body)
	if !ok {
		return
	}
	want := new(interaction)
	if err := json.Unmarshal(body, want); err != nil {
		t.Fatalf("scanInteraction(%q) read what json.Unmarshal refuses: %v", body, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scanInteraction(%q)\n = %s\nwant %s", body, mustJSON(t, got), mustJSON(t, want))
	}
}

// FuzzScan checks scanInteraction against json.Unmarshal on any input.
func FuzzScan(f *testing.F) {
	for _, c := range scanCases(f) {
		f.Add(c.body)
	}
	f.Fuzz(checkScan)
}

// BenchmarkScan decodes the load test's click and a challenge with
// scanInteraction and with json.Unmarshal.
func BenchmarkScan(b *testing.B) {
	bodies := map[string][]byte{}
	for _, c := range scanCases(b) {
		bodies[c.name] = c.body
	}
	for _, c := range []struct {
		name string
		body []byte
	}{{"click", bodies["load test click"]}, {"challenge", bodies["challenge"]}} {
		b.Run(c.name+"/scan", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := scanInteraction(c.body); !ok {
					b.Fatal("not scanned")
				}
			}
		})
		b.Run(c.name+"/unmarshal", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(c.body, new(interaction)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
