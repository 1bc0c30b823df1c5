package discord

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// discordSpec is Discord's OpenAPI description (from
// github.com/discord/discord-api-docs), shared by the project's helpers.
var discordSpec = filepath.Join("..", "..", "..", "shared", "data", "platform-specs", "discord-openapi.json")

// openAPI is a parsed OpenAPI document, with a validator for the subset of
// JSON Schema Discord's spec uses: $ref, type (one or a list), enum,
// const, properties, required, additionalProperties, maxProperties,
// items, minItems, maxItems, uniqueItems, minLength, maxLength (in
// characters), pattern, minimum, maximum, oneOf, anyOf and allOf.
type openAPI struct {
	doc map[string]any
}

func loadOpenAPI(t *testing.T) *openAPI {
	t.Helper()
	buf, err := os.ReadFile(discordSpec)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("Discord's OpenAPI spec: %v", err)
		}
		t.Skipf("Discord's OpenAPI spec is not here: %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf, &doc); err != nil {
		t.Fatalf("Discord's OpenAPI spec: %v", err)
	}
	return &openAPI{doc: doc}
}

// requestSchema is the JSON schema of the body of method path.
func (o *openAPI) requestSchema(t *testing.T, method, path string) any {
	t.Helper()
	op, ok := dig(o.doc, "paths", path, strings.ToLower(method), "requestBody", "content", "application/json", "schema")
	if !ok {
		t.Fatalf("the spec has no JSON body for %s %s", method, path)
	}
	return op
}

// dig walks m by keys.
func dig(v any, keys ...string) (any, bool) {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

// resolve follows a local $ref ("#/components/schemas/X").
func (o *openAPI) resolve(ref string) (any, error) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("non-local $ref %q", ref)
	}
	v, ok := dig(o.doc, strings.Split(ref[2:], "/")...)
	if !ok {
		return nil, fmt.Errorf("dangling $ref %q", ref)
	}
	return v, nil
}

// validate returns what is wrong with v (decoded JSON) against schema, at
// path.
func (o *openAPI) validate(schema any, v any, path string) []string {
	s, ok := schema.(map[string]any)
	if !ok {
		if b, ok := schema.(bool); ok && !b {
			return []string{path + ": not allowed"}
		}
		return nil
	}
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := s["$ref"].(string); ok {
		r, err := o.resolve(ref)
		if err != nil {
			return []string{path + ": " + err.Error()}
		}
		errs = append(errs, o.validate(r, v, path)...)
	}
	if t, ok := s["type"]; ok {
		var types []string
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, x := range t {
				types = append(types, fmt.Sprint(x))
			}
		}
		matched := false
		for _, ty := range types {
			matched = matched || isType(ty, v)
		}
		if !matched {
			bad("%s is not of type %v", short(v), types)
			return errs
		}
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, x := range e {
			found = found || reflect.DeepEqual(x, v)
		}
		if !found {
			bad("%s is not one of %v", short(v), e)
		}
	}
	if c, ok := s["const"]; ok && !reflect.DeepEqual(c, v) {
		bad("%s is not %v", short(v), c)
	}
	for _, x := range listOf(s["allOf"]) {
		errs = append(errs, o.validate(x, v, path)...)
	}
	if one := listOf(s["oneOf"]); one != nil {
		n := 0
		for _, x := range one {
			if len(o.validate(x, v, path)) == 0 {
				n++
			}
		}
		if n != 1 {
			bad("%s matches %d of its %d oneOf schemas, want 1", short(v), n, len(one))
		}
	}
	if any := listOf(s["anyOf"]); any != nil {
		n := 0
		for _, x := range any {
			if len(o.validate(x, v, path)) == 0 {
				n++
			}
		}
		if n == 0 {
			bad("%s matches none of its anyOf schemas", short(v))
		}
	}
	switch v := v.(type) {
	case string:
		n := utf8.RuneCountInString(v)
		if m, ok := s["minLength"].(float64); ok && n < int(m) {
			bad("%q is shorter than %v", v, m)
		}
		if m, ok := s["maxLength"].(float64); ok && n > int(m) {
			bad("%q is longer than %v characters (%d)", v, m, n)
		}
		if p, ok := s["pattern"].(string); ok {
			if re, err := regexp.Compile(p); err == nil && !re.MatchString(v) {
				bad("%q does not match %s", v, p)
			}
		}
	case float64:
		if m, ok := s["minimum"].(float64); ok && v < m {
			bad("%v is below %v", v, m)
		}
		if m, ok := s["maximum"].(float64); ok && v > m {
			bad("%v is above %v", v, m)
		}
	case []any:
		if m, ok := s["minItems"].(float64); ok && len(v) < int(m) {
			bad("%d items, fewer than %v", len(v), m)
		}
		if m, ok := s["maxItems"].(float64); ok && len(v) > int(m) {
			bad("%d items, more than %v", len(v), m)
		}
		if u, _ := s["uniqueItems"].(bool); u {
			for i := range v {
				for j := i + 1; j < len(v); j++ {
					if reflect.DeepEqual(v[i], v[j]) {
						bad("items %d and %d are the same", i, j)
					}
				}
			}
		}
		if items, ok := s["items"]; ok {
			for i, x := range v {
				errs = append(errs, o.validate(items, x, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range listOf(s["required"]) {
			if _, ok := v[fmt.Sprint(r)]; !ok {
				bad("required property %q is missing", r)
			}
		}
		if m, ok := s["maxProperties"].(float64); ok && len(v) > int(m) {
			bad("%d properties, more than %v", len(v), m)
		}
		for k, x := range v {
			if p, ok := props[k]; ok {
				errs = append(errs, o.validate(p, x, path+"."+k)...)
			} else if ap, ok := s["additionalProperties"]; ok {
				errs = append(errs, o.validate(ap, x, path+"."+k)...)
			}
		}
	}
	return errs
}

func listOf(v any) []any {
	l, _ := v.([]any)
	return l
}

// isType reports whether v (decoded JSON) is of JSON Schema type ty.
func isType(ty string, v any) bool {
	switch ty {
	case "null":
		return v == nil
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return false
}

// short is v for an error message, cut to 60 bytes.
func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:60]) + "…"
	}
	return string(b)
}

// TestValidatorRejects makes sure the validator can fail: bodies Discord
// would refuse are refused.
func TestValidatorRejects(t *testing.T) {
	spec := loadOpenAPI(t)
	schema := spec.requestSchema(t, "PUT", "/applications/{application_id}/commands")
	for _, body := range []string{
		`[{"description":"no name"}]`,
		`[{"name":"` + strings.Repeat("x", 33) + `"}]`,
		`[{"name":"c","name_localizations":{"de":""}}]`,
		`[{"name":"c","description_localizations":{"de":"` + strings.Repeat("ü", 101) + `"}}]`,
		`[{"name":"c","options":[{"type":1,"name":"s"}]}]`,
		`[{"name":"c","options":[{"type":99,"name":"s","description":"d"}]}]`,
		`{"name":"c"}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		if errs := spec.validate(schema, v, "body"); len(errs) == 0 {
			t.Errorf("%s validates", body)
		}
	}
}
