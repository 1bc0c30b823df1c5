package match

import (
	"errors"
	"fmt"
	"time"
)

// ErrNotInstalled is returned by an installation store for a workspace
// that has no installation (never installed, or uninstalled).
var ErrNotInstalled = errors.New("match: the app is not installed in this workspace")

// Installation is the app's installation in one Slack workspace, or in a
// whole Enterprise Grid organisation (OrgWide, for all its workspaces). The
// tokens are in Sealed, encrypted by the adapter: stores keep it as opaque
// bytes and never see a token.
type Installation struct {
	// ID is what the installation is stored under: the workspace's team id
	// (T…), or the organisation's enterprise id (E…) when OrgWide.
	ID         string
	Team       string // the installing workspace's team id ("" for an org-wide install)
	Enterprise string // the organisation's id, "" outside Enterprise Grid
	OrgWide    bool
	Name       string // the workspace's or organisation's name, for the operator
	BotUserID  string // the bot's user id in the workspace
	URL        string // the workspace's URL (https://name.slack.com/), for links to messages; may be empty
	Sealed     []byte // the access and refresh tokens, sealed
	// Expires is when the access token expires (token rotation); zero
	// when it does not.
	Expires   time.Time
	Installed time.Time // when the app was (last) installed
	// Version is set by the store: 1 when put, +1 on every renewal.
	Version int64
}

// maxInstallID bounds an installation's id.
const maxInstallID = 64

// ValidInstallID reports whether id can name an installation: a Slack
// team (T…) or enterprise (E…) id, upper-case letters and digits.
func ValidInstallID(id string) bool {
	if len(id) < 2 || len(id) > maxInstallID || (id[0] != 'T' && id[0] != 'E') {
		return false
	}
	for i := 1; i < len(id); i++ {
		if c := id[i]; (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Validate reports what makes inst unfit to store.
func (inst *Installation) Validate() error {
	var errs []error
	if !ValidInstallID(inst.ID) {
		errs = append(errs, fmt.Errorf("id %.70q is not a team or enterprise id", inst.ID))
	}
	if inst.OrgWide != (inst.ID != "" && inst.ID[0] == 'E') {
		errs = append(errs, errors.New("an org-wide installation is stored under its enterprise id, any other under its team id"))
	}
	if len(inst.Sealed) == 0 {
		errs = append(errs, errors.New("no tokens"))
	}
	for _, f := range []struct{ name, val string }{{"team", inst.Team}, {"enterprise", inst.Enterprise}, {"bot user", inst.BotUserID}} {
		if f.val != "" && !validPart(f.val) {
			errs = append(errs, fmt.Errorf("%s %.70q is not an id", f.name, f.val))
		}
	}
	if len(inst.Name) > 256 || len(inst.URL) > 512 || len(inst.Sealed) > 8192 {
		errs = append(errs, errors.New("a field is too long"))
	}
	if len(errs) > 0 {
		return fmt.Errorf("%w: installation: %w", ErrInvalid, errors.Join(errs...))
	}
	return nil
}

// validPart reports whether s is a plain id: letters and digits.
func validPart(s string) bool {
	if len(s) > maxInstallID {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Purge is a workspace's data to delete after an uninstall: a job of the
// store's own schedule, claimed by one worker at a time under a lease.
type Purge struct {
	ID  string    // the installation's id (team or enterprise)
	At  time.Time // when it was uninstalled: an installation newer than this is a reinstall, which stops the purge
	Due time.Time // the claim's lease end: Renew and Finish must name it
}
