package discord

import "testing"

func TestAPIBase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"https://discord.com", "https://discord.com"},
		{"https://discord.com/", "https://discord.com"},
		{"https://discord.com/api", "https://discord.com"},
		{"https://discord.com/api/", "https://discord.com"},
		{"https://discord.com/api/v9", "https://discord.com"},
		{"https://discord.com/api/v10/", "https://discord.com"},
		{"http://127.0.0.1:9000/proxy/api", "http://127.0.0.1:9000/proxy"},
		{"http://127.0.0.1:9000/api/vx", "http://127.0.0.1:9000/api/vx"},
		{"http://127.0.0.1:9000/apiary", "http://127.0.0.1:9000/apiary"},
	}
	for _, tt := range tests {
		if got := apiBase(tt.in); got != tt.want {
			t.Errorf("apiBase(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
