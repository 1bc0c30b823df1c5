package main

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/lang"
)

func TestPlayLocale(t *testing.T) {
	tests := []struct {
		flag    string
		env     []string
		want    string
		wantErr bool
	}{
		{"", nil, "", false},
		{"ja", []string{"LANG", "de_DE.UTF-8"}, "ja", false},
		{"pt-BR", nil, "pt-BR", false},
		{"", []string{"LANG", "de_DE.UTF-8"}, "de_DE.UTF-8", false},
		{"", []string{"LANG", "de_DE.UTF-8", "LC_MESSAGES", "fr_FR.UTF-8"}, "fr_FR.UTF-8", false},
		{"", []string{"LANG", "de_DE.UTF-8", "LC_MESSAGES", "fr_FR.UTF-8", "LC_ALL", "ja_JP.UTF-8"}, "ja_JP.UTF-8", false},
		{"", []string{"LANG", "C"}, "C", false}, // read as English by the bot
		{"xx", nil, "", true},
		{"sv", nil, "", true},
	}
	for _, tt := range tests {
		got, err := playLocale(tt.flag, env(tt.env...))
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("playLocale(%q, %q) = %q, %v; want %q, error %v", tt.flag, tt.env, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestPlayLang checks the wiring of -lang and LANG: the terminal's words
// come in the language asked for, and an unknown -lang is a usage error.
// (The "not English" check awaits the Japanese catalogue.)
func TestPlayLang(t *testing.T) {
	// The terminal shows the chat's `code` as plain words when its output
	// is not a terminal.
	want := strings.ReplaceAll(lang.Japanese.Say("terminal.unknownWord", lang.Args{"Word": strconv.Quote("zzz"), "Hint": "[1]"}), "`", "")
	for _, tc := range []struct {
		args []string
		env  func(string) string
	}{
		{[]string{"play", "-lang", "ja"}, env()},
		{[]string{"play"}, env("LANG", "ja_JP.UTF-8")},
	} {
		var out, errb bytes.Buffer
		if err := run(t.Context(), tc.args, tc.env, strings.NewReader("zzz\nquit\n"), &out, &errb); err != nil {
			t.Fatalf("%q: %v\n%s", tc.args, err, errb.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%q: output %q lacks the Japanese %q", tc.args, out.String(), want)
		}
	}
	if strings.HasPrefix(want, "(I don't know") {
		t.Errorf("the terminal's Japanese is its English: %q", want)
	}
	var out, errb bytes.Buffer
	err := run(t.Context(), []string{"play", "-lang", "xx"}, env(), strings.NewReader("quit\n"), &out, &errb)
	if !errors.Is(err, errUsage) || !strings.Contains(errb.String(), "-lang \"xx\"") {
		t.Errorf("-lang xx: %v, stderr %q; want a usage error naming it", err, errb.String())
	}
}
