package slack

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeSlack is a local fake of the parts of Slack's Web API the
// many-workspace mode calls: oauth.v2.access (codes and token rotation),
// auth.test, users.info, chat.postMessage, chat.update and views.publish.
// Each installation's tokens name it and their generation
// ("xoxb-T1-g1-SECRET…"); a call with a token of an older generation is
// refused with invalid_auth, as Slack refuses a rotated token. It records
// every call with the token it carried.
type fakeSlack struct {
	t   *testing.T
	srv *httptest.Server

	mu sync.Mutex
	// expiresIn, when > 0, turns token rotation on: installs and renewals
	// answer a refresh token and this lifetime in seconds.
	expiresIn int
	gen       map[string]int // installation id → its tokens' generation
	refreshes map[string]int // installation id → renewals
	tries     int            // refresh_token grants asked, refused ones too
	calls     []apiCall
	ts        int
}

// apiCall is one recorded Web API call.
type apiCall struct {
	method, token, channel, user string
	body                         string
}

const (
	fakeClientID     = "111.222"
	fakeClientSecret = "client-secret-never-logged"
)

func newFakeSlack(t *testing.T) *fakeSlack {
	f := &fakeSlack{t: t, gen: map[string]int{}, refreshes: map[string]int{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// url is the Web API base URL, with its trailing slash.
func (f *fakeSlack) url() string { return f.srv.URL + "/" }

func accessToken(id string, gen int) string {
	return "xoxb-" + id + "-g" + strconv.Itoa(gen) + "-SECRETACCESS"
}

func refreshToken(id string, gen int) string {
	return "xoxe-1-" + id + "-g" + strconv.Itoa(gen) + "-SECRETREFRESH"
}

// tokenOwner returns the installation id and generation a token names.
func tokenOwner(tok string) (string, int) {
	p := strings.Split(tok, "-")
	for i, s := range p {
		if strings.HasPrefix(s, "g") && i > 0 {
			n, _ := strconv.Atoi(s[1:])
			return p[i-1], n
		}
	}
	return "", 0
}

func (f *fakeSlack) serve(w http.ResponseWriter, r *http.Request) {
	method := strings.TrimPrefix(r.URL.Path, "/")
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(strings.NewReader(string(body)))
	token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	var jsonBody map[string]any
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		json.Unmarshal(body, &jsonBody)
	} else {
		r.ParseForm()
		if t := r.PostForm.Get("token"); t != "" {
			token = t
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if method == "oauth.v2.access" {
		f.oauth(w, r)
		return
	}
	id, gen := tokenOwner(token)
	f.mu.Lock()
	current := f.gen[id]
	call := apiCall{method: method, token: token, channel: r.PostForm.Get("channel"), user: r.PostForm.Get("user"), body: string(body)}
	if uid, ok := jsonBody["user_id"].(string); ok {
		call.user = uid
	}
	f.calls = append(f.calls, call)
	f.ts++
	ts := f.ts
	f.mu.Unlock()
	if id == "" || gen != current {
		fmt.Fprint(w, `{"ok":false,"error":"invalid_auth"}`)
		return
	}
	switch method {
	case "auth.test":
		team := id
		if id[0] == 'E' {
			team = ""
		}
		fmt.Fprintf(w, `{"ok":true,"url":"https://%s.slack.test/","team":"Team %s","user":"connect4","team_id":%q,"user_id":%q}`,
			strings.ToLower(id), id, team, "UBOT"+id)
	case "users.info":
		u := r.PostForm.Get("user")
		fmt.Fprintf(w, `{"ok":true,"user":{"id":%q,"name":%q,"is_bot":false,"locale":"de-DE"}}`, u, strings.ToLower(u))
	case "chat.postMessage", "chat.update":
		fmt.Fprintf(w, `{"ok":true,"channel":%q,"ts":"1700000000.%06d","text":""}`, r.PostForm.Get("channel"), ts)
	case "views.publish":
		fmt.Fprint(w, `{"ok":true,"view":{"id":"V1","type":"home"}}`)
	default:
		fmt.Fprint(w, `{"ok":false,"error":"unknown_method"}`)
	}
}

// oauth answers oauth.v2.access: a code "code-<id>" installs id (an
// enterprise id installs org-wide), a refresh token renews.
func (f *fakeSlack) oauth(w http.ResponseWriter, r *http.Request) {
	cid, secret, ok := r.BasicAuth()
	if !ok {
		cid, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if cid != fakeClientID || secret != fakeClientSecret {
		fmt.Fprint(w, `{"ok":false,"error":"invalid_client_id"}`)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var id string
	if r.PostForm.Get("grant_type") == "refresh_token" {
		f.tries++
		rid, gen := tokenOwner(r.PostForm.Get("refresh_token"))
		if rid == "" || gen != f.gen[rid] {
			fmt.Fprint(w, `{"ok":false,"error":"invalid_refresh_token"}`)
			return
		}
		id = rid
		f.refreshes[id]++
	} else {
		code, ok := strings.CutPrefix(r.PostForm.Get("code"), "code-")
		if !ok || code == "" || code == "REFUSED" {
			fmt.Fprint(w, `{"ok":false,"error":"invalid_code"}`)
			return
		}
		id = code
	}
	f.gen[id]++
	gen := f.gen[id]
	resp := map[string]any{"ok": true, "access_token": accessToken(id, gen), "token_type": "bot",
		"scope": strings.Join(Scopes, ","), "bot_user_id": "UBOT" + id, "app_id": "A1"}
	if id[0] == 'E' {
		resp["team"] = nil
		resp["enterprise"] = map[string]any{"id": id, "name": "Org " + id}
		resp["is_enterprise_install"] = true
	} else {
		resp["team"] = map[string]any{"id": id, "name": "Team <b>" + id + "</b>"}
	}
	if f.expiresIn > 0 {
		resp["refresh_token"] = refreshToken(id, gen)
		resp["expires_in"] = f.expiresIn
	}
	json.NewEncoder(w).Encode(resp)
}

// recorded returns the calls so far of the given methods (all when none).
func (f *fakeSlack) recorded(methods ...string) []apiCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []apiCall
	for _, c := range f.calls {
		if len(methods) == 0 || contains(methods, c.method) {
			out = append(out, c)
		}
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// secrets returns every token the fake ever issued, and the client secret.
func (f *fakeSlack) secrets() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []string{fakeClientSecret}
	for id, n := range f.gen {
		for g := 1; g <= n; g++ {
			out = append(out, accessToken(id, g), refreshToken(id, g))
		}
	}
	return out
}
