package sessions

import (
	"errors"
	"net"

	"github.com/redis/go-redis/v9"
)

// Misconfiguration tells an operator what is wrong with the store's
// configuration, from an error of the store (a Ping at start, or any
// call): Reason says what the server answered and what to change, and
// Fatal that it cannot heal without a change of configuration (a wrong
// database number, a refused password or user, missing permissions), so
// that starting with it would only fail every request. An unknown host is
// not fatal: its name may yet be created (a service coming up), but it is
// reported as a configuration error rather than an outage.
type Misconfiguration struct {
	Reason string
	Fatal  bool
}

// Misconfigured returns what is wrong with the configuration if err says
// so, or false when err is anything else (an outage, a timeout, nil).
func Misconfigured(err error) (Misconfiguration, bool) {
	var dns *net.DNSError
	switch {
	case err == nil:
		return Misconfiguration{}, false
	case redis.HasErrorPrefix(err, "DB index is out of range"):
		return Misconfiguration{Fatal: true, Reason: "the database number (REDIS_URL's path, /N) does not exist on this server " +
			"(ERR DB index is out of range): use one below the server's `databases` setting, 0 to 15 by default"}, true
	case redis.IsAuthError(err):
		return Misconfiguration{Fatal: true, Reason: "the server refused the credentials (" + redisReply(err) + "): " +
			"check the user and password in REDIS_URL (redis://user:password@host), or REDIS_USERNAME and REDIS_PASSWORD"}, true
	case redis.IsPermissionError(err):
		return Misconfiguration{Fatal: true, Reason: "the Redis user may not run the commands the bot needs (" + redisReply(err) + "): " +
			"grant it +@all on the key prefix (REDIS_PREFIX) or use another user"}, true
	case errors.As(err, &dns) && dns.IsNotFound:
		return Misconfiguration{Reason: "the host name does not resolve (" + dns.Name + ": no such host): check the host in REDIS_URL, " +
			"REDIS_CLUSTER_ADDRS or REDIS_SENTINEL_ADDRS"}, true
	}
	return Misconfiguration{}, false
}

// redisReply is the server's reply in err, without anything of the
// request (a reply never holds the password sent).
func redisReply(err error) string {
	var re redis.Error
	if errors.As(err, &re) {
		return re.Error()
	}
	return "refused"
}
