package main

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/ops"
	"gopkg.in/yaml.v3"
)

// deployDir is deploy/ from this package's directory.
const deployDir = "../../deploy"

// yamlDocs returns every document of the YAML file at path, failing t on a
// parse error.
func yamlDocs(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var docs []map[string]any
	dec := yaml.NewDecoder(f)
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("%s: document %d: %v", path, len(docs)+1, err)
		}
		if doc != nil {
			docs = append(docs, doc)
		}
	}
}

// dig follows keys (map keys as strings, list indexes as ints) into v and
// returns what is there, or nil.
func dig(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func TestDeployYAMLParses(t *testing.T) {
	var n int
	err := filepath.WalkDir(deployDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ext := filepath.Ext(path); d.IsDir() || (ext != ".yml" && ext != ".yaml") {
			return nil
		}
		n++
		if docs := yamlDocs(t, path); len(docs) == 0 {
			t.Errorf("%s: no YAML document", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 4 { // compose, two k8s files, the Slack manifest
		t.Errorf("found %d YAML files under deploy/, want at least 4", n)
	}
}

// k8sObjects returns the objects of deploy/k8s by kind.
func k8sObjects(t *testing.T) map[string]map[string]any {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(deployDir, "k8s", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no deploy/k8s/*.yaml: %v", err)
	}
	objs := map[string]map[string]any{}
	for _, p := range paths {
		for _, doc := range yamlDocs(t, p) {
			kind, _ := doc["kind"].(string)
			if kind == "" || doc["apiVersion"] == nil || dig(doc, "metadata", "name") == nil {
				t.Errorf("%s: an object without apiVersion, kind or metadata.name", p)
				continue
			}
			if objs[kind] != nil {
				t.Errorf("%s: a second %s", p, kind)
			}
			objs[kind] = doc
		}
	}
	return objs
}

func TestDeployKubernetes(t *testing.T) {
	objs := k8sObjects(t)
	dep, svc, sec := objs["Deployment"], objs["Service"], objs["Secret"]
	if dep == nil || svc == nil || sec == nil {
		t.Fatalf("deploy/k8s has kinds %v, want a Deployment, a Service and a Secret", slices.Sorted(maps.Keys(objs)))
	}
	pod := dig(dep, "spec", "template", "spec")
	c := dig(pod, "containers", 0)
	checks := []struct {
		what string
		got  any
		want any
	}{
		{"spec.replicas", dig(dep, "spec", "replicas"), 2},
		{"livenessProbe path", dig(c, "livenessProbe", "httpGet", "path"), "/healthz"},
		{"readinessProbe path", dig(c, "readinessProbe", "httpGet", "path"), "/readyz"},
		{"pod runAsNonRoot", dig(pod, "securityContext", "runAsNonRoot"), true},
		{"container readOnlyRootFilesystem", dig(c, "securityContext", "readOnlyRootFilesystem"), true},
		{"container allowPrivilegeEscalation", dig(c, "securityContext", "allowPrivilegeEscalation"), false},
		{"prometheus.io/scrape", dig(dep, "spec", "template", "metadata", "annotations", "prometheus.io/scrape"), "true"},
		{"prometheus.io/path", dig(dep, "spec", "template", "metadata", "annotations", "prometheus.io/path"), "/metrics"},
		{"envFrom secretRef", dig(c, "envFrom", 0, "secretRef", "name"), dig(sec, "metadata", "name")},
		{"Service targetPort", dig(svc, "spec", "ports", 0, "targetPort"), dig(c, "ports", 0, "name")},
		{"probe port", dig(c, "livenessProbe", "httpGet", "port"), dig(c, "ports", 0, "name")},
	}
	for _, ch := range checks {
		if ch.got != ch.want || ch.got == nil {
			t.Errorf("Deployment %s = %v, want %v", ch.what, ch.got, ch.want)
		}
	}
	if uid, _ := dig(pod, "securityContext", "runAsUser").(int); uid == 0 {
		t.Errorf("pod runAsUser = %v, want a non-zero uid", dig(pod, "securityContext", "runAsUser"))
	}
	for _, r := range []string{"requests", "limits"} {
		for _, k := range []string{"cpu", "memory"} {
			if dig(c, "resources", r, k) == nil {
				t.Errorf("Deployment resources.%s.%s not set", r, k)
			}
		}
	}
	sel, _ := dig(svc, "spec", "selector").(map[string]any)
	labels, _ := dig(dep, "spec", "template", "metadata", "labels").(map[string]any)
	if len(sel) == 0 {
		t.Error("Service has no selector")
	}
	for k, v := range sel {
		if labels[k] != v {
			t.Errorf("Service selector %s=%v does not match the pod labels %v", k, v, labels)
		}
	}
	// The Secret holds Redis as an external URL, and only variables that
	// connect4 reads.
	data, _ := sec["stringData"].(map[string]any)
	if u, _ := data["REDIS_URL"].(string); !strings.HasPrefix(u, "redis://") && !strings.HasPrefix(u, "rediss://") {
		t.Errorf("Secret REDIS_URL = %q, want a redis:// or rediss:// URL", u)
	}
	for k := range data {
		if !knownVar(k) {
			t.Errorf("Secret key %s is not a variable of connect4", k)
		}
	}
	for _, e := range dig(c, "env").([]any) {
		if name, _ := dig(e, "name").(string); !knownVar(name) && !strings.HasPrefix(name, "GO") {
			t.Errorf("Deployment env %s is not a variable of connect4 or of the Go runtime", name)
		}
	}
}

func knownVar(name string) bool {
	return slices.ContainsFunc(envVars, func(e ops.Var) bool { return e.Name == name })
}

func TestDeployCompose(t *testing.T) {
	docs := yamlDocs(t, filepath.Join(deployDir, "docker-compose.yml"))
	if len(docs) != 1 {
		t.Fatalf("docker-compose.yml has %d documents, want 1", len(docs))
	}
	c := docs[0]
	redis := dig(c, "services", "redis")
	bot := dig(c, "services", "connect4")
	if redis == nil || bot == nil {
		t.Fatalf("services %v, want connect4 and redis", dig(c, "services"))
	}
	var cmd []string
	switch v := dig(redis, "command").(type) {
	case string:
		cmd = strings.Fields(v)
	case []any:
		for _, a := range v {
			s, _ := a.(string)
			cmd = append(cmd, s)
		}
	}
	if i := slices.Index(cmd, "--appendonly"); i < 0 || i+1 >= len(cmd) || cmd[i+1] != "yes" {
		t.Errorf("redis command %q, want --appendonly yes", cmd)
	}
	var dataVolume string
	for _, v := range dig(redis, "volumes").([]any) {
		s, _ := v.(string)
		if src, dst, ok := strings.Cut(s, ":"); ok && dst == "/data" {
			dataVolume = src
		}
	}
	if dataVolume == "" || strings.ContainsAny(dataVolume, "./") {
		t.Errorf("redis volumes %v, want a named volume on /data", dig(redis, "volumes"))
	} else if _, ok := dig(c, "volumes").(map[string]any)[dataVolume]; !ok {
		t.Errorf("volume %q is not declared under volumes:", dataVolume)
	}
	if dig(redis, "healthcheck", "test") == nil || dig(bot, "healthcheck", "test") == nil {
		t.Error("redis and connect4 both need a healthcheck")
	}
	if got := dig(bot, "depends_on", "redis", "condition"); got != "service_healthy" {
		t.Errorf("connect4 depends_on.redis.condition = %v, want service_healthy", got)
	}
	if got, _ := dig(bot, "environment", "REDIS_URL").(string); !strings.HasPrefix(got, "redis://redis:") {
		t.Errorf("connect4 REDIS_URL = %q, want the compose service redis://redis:6379", got)
	}
	if got := dig(bot, "build", "dockerfile"); got != "deploy/Dockerfile" {
		t.Errorf("connect4 build.dockerfile = %v, want deploy/Dockerfile", got)
	}
}

var envLine = regexp.MustCompile(`^([A-Z][A-Z0-9_]*)=(.*)$`)

func TestDeployEnvExample(t *testing.T) {
	f, err := os.Open(filepath.Join(deployDir, ".env.example"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := envLine.FindStringSubmatch(line)
		if m == nil {
			t.Errorf(".env.example:%d: %q is not NAME=value", n, line)
			continue
		}
		seen[m[1]]++
		if !knownVar(m[1]) {
			t.Errorf(".env.example:%d: %s is not a variable of connect4", n, m[1])
		}
		if isSecret(m[1]) && m[2] != "" {
			t.Errorf(".env.example:%d: secret %s has a value", n, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, e := range envVars {
		if seen[e.Name] != 1 {
			t.Errorf(".env.example sets %s %d times, want once", e.Name, seen[e.Name])
		}
	}
}

func isSecret(name string) bool {
	return strings.Contains(name, "SECRET") || strings.Contains(name, "TOKEN") || strings.Contains(name, "PASSWORD") ||
		name == "REDIS_URL" // may carry a password
}

// dockerfileLines returns the Dockerfile's logical lines: continuations
// joined, comments dropped.
func dockerfileLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(deployDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var cur strings.Builder
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		if s, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(strings.TrimSpace(s) + " ")
			continue
		}
		cur.WriteString(line)
		if l := strings.TrimSpace(cur.String()); l != "" {
			out = append(out, l)
		}
		cur.Reset()
	}
	return out
}

// buildLine is the `go build` command of the image and of deploy/README.md.
var buildLine = regexp.MustCompile(`CGO_ENABLED=0 go build .*\./cmd/connect4`)

func TestDeployDockerfile(t *testing.T) {
	lines := dockerfileLines(t)
	var build string
	var froms []string
	has := map[string]string{}
	for _, l := range lines {
		instr, rest, _ := strings.Cut(l, " ")
		switch strings.ToUpper(instr) {
		case "FROM":
			froms = append(froms, rest)
		case "RUN":
			if m := buildLine.FindString(rest); m != "" {
				build = m
			}
		}
		has[strings.ToUpper(instr)] = rest
	}
	if build == "" {
		t.Fatalf("Dockerfile has no RUN with %s", buildLine)
	}
	if len(froms) < 2 || !strings.Contains(froms[0], "golang:1.26") {
		t.Errorf("FROM lines %q, want a golang:1.26 build stage and a runtime stage", froms)
	}
	for _, want := range []struct{ instr, value string }{
		{"EXPOSE", "8080"},
		{"ENTRYPOINT", `["connect4"]`},
		{"CMD", `["serve"]`},
	} {
		if has[want.instr] != want.value {
			t.Errorf("Dockerfile %s %q, want %q", want.instr, has[want.instr], want.value)
		}
	}
	if u := has["USER"]; u == "" || u == "root" || strings.HasPrefix(u, "0") {
		t.Errorf("Dockerfile USER %q, want a non-root user", u)
	}
	if hc := has["HEALTHCHECK"]; !strings.Contains(hc, "127.0.0.1:8080/healthz") {
		t.Errorf("Dockerfile HEALTHCHECK %q, want a probe of 127.0.0.1:8080/healthz", hc)
	}
	out := regexp.MustCompile(`-o (\S+)`).FindStringSubmatch(build)
	if out == nil || !strings.Contains(has["COPY"], "--from=build "+out[1]+" ") {
		t.Errorf("the runtime stage copies %q, want the build's output %v", has["COPY"], out)
	}

	readme, err := os.ReadFile(filepath.Join(deployDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got := buildLine.FindString(string(readme)); got != build {
		t.Errorf("deploy/README.md builds with\n\t%s\nthe Dockerfile with\n\t%s", got, build)
	}
	for _, cmd := range []string{"docker build -f deploy/Dockerfile", "docker compose -f deploy/docker-compose.yml up"} {
		if !strings.Contains(string(readme), cmd) {
			t.Errorf("deploy/README.md lacks %q", cmd)
		}
	}

	// Run the build line itself, into a temporary directory. It builds the
	// whole binary again (with -trimpath and other flags, so nothing is
	// shared with the test's own build cache): two minutes on a cold cache,
	// so only when asked. .ci/run asks.
	if os.Getenv("CONNECT4_TEST_BUILD") != "1" {
		t.Skip("set CONNECT4_TEST_BUILD=1 to run the image's go build line (.ci/run does)")
	}
	bin := filepath.Join(t.TempDir(), "connect4")
	line := strings.Replace(build, "-o "+out[1], "-o "+bin, 1)
	sh := exec.CommandContext(t.Context(), "sh", "-c", line)
	sh.Dir = "../.."
	if b, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", line, err, b)
	}
	help, err := exec.CommandContext(t.Context(), bin, "help").CombinedOutput()
	if err != nil || !strings.Contains(string(help), "connect4 serve") {
		t.Errorf("the built binary's help: %v\n%s", err, help)
	}
}
