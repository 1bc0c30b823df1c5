package sessions

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// The channel's display settings live in a hash under its hash tag,
// <prefix>{<platform>:<workspace>:<channel>}:settings, field → value
// (board → image|emoji, palette → standard|colourblind, language → a code
// such as de or pt-BR, or "" once cleared), without a TTL.

// settingsKey is the key of channel k's settings hash.
func (s *Redis) settingsKey(k match.Key) string { return s.tagged(k, "settings") }

// setSettingsScript writes the field, value pairs of ARGV into the hash
// KEYS[1] and returns the whole hash. A key of another type (a damaged
// one) is replaced, since a settings change is the way to repair it. The
// HSET is the type check: a key of another type refuses it, changing
// nothing, and only then is it replaced and written again.
var setSettingsScript = redis.NewScript(`
if type(redis.pcall('HSET', KEYS[1], unpack(ARGV))) ~= 'number' then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], unpack(ARGV))
end
return redis.call('HGETALL', KEYS[1])
`)

// Settings implements the store's Settings with one HGETALL.
func (s *Redis) Settings(ctx context.Context, k match.Key) (match.Settings, error) {
	if err := s.begin(k); err != nil {
		return match.Settings{}, err
	}
	h, err := s.c.HGetAll(ctx, s.settingsKey(k)).Result()
	if isWrongType(err) {
		return match.Settings{}, s.corrupt("settings", wrongKeyType(k, s.settingsKey(k)))
	}
	if err != nil {
		return match.Settings{}, s.fail("settings", k, err)
	}
	var st match.Settings
	for f, v := range h {
		st.ParseSetting(f, v)
	}
	return st, nil
}

// SetSettings implements the store's SetSettings with one script call.
func (s *Redis) SetSettings(ctx context.Context, k match.Key, change match.Settings) (match.Settings, error) {
	if err := s.begin(k); err != nil {
		return match.Settings{}, err
	}
	if !change.Valid() {
		return match.Settings{}, fmt.Errorf("sessions: set settings %s: %w: %+v", k, match.ErrInvalid, change)
	}
	fields := change.Fields()
	if len(fields) == 0 {
		return s.Settings(ctx, k)
	}
	args := make([]any, len(fields))
	for i, f := range fields {
		args[i] = f
	}
	res, err := setSettingsScript.Run(ctx, s.c, []string{s.settingsKey(k)}, args...).Slice()
	if err != nil {
		return match.Settings{}, s.fail("set settings", k, err)
	}
	var st match.Settings
	for i := 0; i+1 < len(res); i += 2 {
		f, ok1 := res[i].(string)
		v, ok2 := res[i+1].(string)
		if ok1 && ok2 {
			st.ParseSetting(f, v)
		}
	}
	return st, nil
}

// Settings implements the store's Settings.
func (m *Memory) Settings(ctx context.Context, k match.Key) (match.Settings, error) {
	if err := m.begin(ctx, "settings", k, true); err != nil {
		return match.Settings{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.settings[k], nil
}

// SetSettings implements the store's SetSettings.
func (m *Memory) SetSettings(ctx context.Context, k match.Key, change match.Settings) (match.Settings, error) {
	if err := m.begin(ctx, "set settings", k, true); err != nil {
		return match.Settings{}, err
	}
	if !change.Valid() {
		return match.Settings{}, fmt.Errorf("sessions: set settings %s: %w: %+v", k, match.ErrInvalid, change)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	st := m.settings[k].With(change)
	if st == (match.Settings{}) {
		delete(m.settings, k) // nothing chosen, or the last choice cleared
	} else {
		m.settings[k] = st
	}
	return st, nil
}
