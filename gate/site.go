package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

func errorf(format string, args ...any) error { return fmt.Errorf("gate: "+format, args...) }

// site is a configured host: where its robots.txt comes from, the file that
// robots.txt replaced last (for Config.Grace), and the time of each enforced
// crawler's last request (for Crawl-delay).
type site struct {
	key       string // hostKey of the configured Host
	name      string // its robots.txt's file or URL, naming its versions in the report
	file      *localFile
	robotsURL string // Origin + /robots.txt, for sites without a file

	state atomic.Pointer[siteState]
	mu    sync.Mutex             // for changes of state, and last
	last  map[delayKey]time.Time // the last request of each crawler (see pace)
}

// siteState is the robots.txt last seen of a site and the one it replaced.
type siteState struct {
	cur     *robots.Robots // the file last seen, to notice a change
	curBody string
	version *version       // cur's, for the report
	prev    *robots.Robots // the file cur replaced, and when
	changed time.Time
}

// delayKey keeps verified crawlers' pace apart from that of clients claiming
// their names: an impostor's requests do not make the real crawler wait.
type delayKey struct {
	crawler string
	status  Status
}

func newSite(sc Site, now time.Time) (*site, error) {
	host := strings.TrimSpace(sc.Host)
	if host == AnyHost {
		if sc.File == "" && sc.Origin == "" {
			return nil, errorf("site %s: give its robots.txt as a file or an origin (the gate never fetches from a Host a request names)", AnyHost)
		}
	} else if host == "" || !validHost(host) {
		return nil, errorf("site host %q is not a host name", sc.Host)
	}
	s := &site{key: hostKey(host), last: map[delayKey]time.Time{}}
	if sc.File != "" {
		if sc.Origin != "" {
			return nil, errorf("site %s: give its robots.txt as a file or an origin, not both", host)
		}
		f := &localFile{path: sc.File}
		if err := f.load(now); err != nil {
			return nil, errorf("site %s: %v", host, err)
		}
		s.file, s.name = f, sc.File
		return s, nil
	}
	origin := sc.Origin
	if origin == "" {
		origin = "https://" + host
	}
	o, err := fetch.Origin(origin)
	if err != nil {
		return nil, errorf("site %s: origin %q: %v", host, sc.Origin, err)
	}
	s.robotsURL = o + "/robots.txt"
	s.name = s.robotsURL
	return s, nil
}

// rules is the robots.txt a decision reads: parsed rules, or a file-wide effect.
type rules struct {
	rb      *robots.Robots // with effect ObeyRules
	body    string         // rb's
	effect  fetch.Effect
	stale   bool
	version *version
	prev    *rules // the file this one replaced, while it counts
	changed time.Time
}

func (r *rules) check(agents []string, uri string) robots.Decision {
	switch r.effect {
	case fetch.ObeyRules:
		return r.rb.CheckAgents(agents, uri)
	case fetch.DisallowAll:
		return robots.Decision{Group: -1}
	}
	return robots.Decision{Allowed: true, Group: -1}
}

func (r *rules) crawlDelay(agent string) (time.Duration, bool) {
	if r.effect != fetch.ObeyRules {
		return 0, false
	}
	return r.rb.CrawlDelay(agent)
}

// errNoFile is the error of a site whose file could not be read.
var errNoFile = errors.New("robots.txt not readable")

// rules returns the site's robots.txt now, fetched from its origin if needed
// (waiting at most Config.FetchWait).
func (s *site) rules(ctx context.Context, g *Gate, now time.Time) (rules, error) {
	var r rules
	if s.file != nil {
		lf, err := s.file.get(now)
		if err != nil {
			return r, err
		}
		r.rb, r.body, r.effect = lf.rb, lf.body, fetch.ObeyRules
	} else {
		res, ok := g.client.Peek(s.robotsURL)
		if !ok {
			var err error
			if res, err = g.client.Get(ctx, s.robotsURL); err != nil {
				return r, fmt.Errorf("%s: %w", s.robotsURL, err)
			}
		}
		if res.Outcome == fetch.Unreachable && !res.Stale {
			if res.Err != nil {
				return r, fmt.Errorf("%s: %w", s.robotsURL, res.Err)
			}
			return r, fmt.Errorf("%s: unreachable (status %d)", s.robotsURL, res.Status)
		}
		r.effect, r.stale = res.Effect, res.Stale
		if res.Effect == fetch.ObeyRules {
			r.rb, r.body = res.Robots, res.Body
			if r.rb == nil {
				r.rb = robots.ParseString(res.Body)
			}
		}
	}
	s.noteChange(&r, now)
	return r, nil
}

// noteChange keeps the file a new robots.txt replaced, and when, and gives r the
// previous file while it counts.
func (s *site) noteChange(r *rules, now time.Time) {
	st := s.state.Load()
	if st == nil || st.cur != r.rb {
		s.mu.Lock()
		if st = s.state.Load(); st == nil {
			st = &siteState{cur: r.rb, curBody: r.body, version: newVersion(s.name, r.body, now)}
			s.state.Store(st)
		} else if st.cur != r.rb {
			next := &siteState{cur: r.rb, curBody: r.body, prev: st.prev, changed: st.changed, version: st.version}
			if r.body != st.curBody {
				next.prev, next.changed = st.cur, now
				next.version = newVersion(s.name+" ("+now.UTC().Format(time.RFC3339)+")", r.body, now)
			}
			st = next
			s.state.Store(st)
		}
		s.mu.Unlock()
	}
	r.version = st.version
	if st.prev != nil {
		r.prev = &rules{rb: st.prev, effect: fetch.ObeyRules}
		r.changed = st.changed
	}
}

// pace reports how long a crawler must still wait before its next request, by
// its Crawl-delay: zero when it kept it. The request is counted as made (the
// crawler's clock restarts) when it kept its delay, or always with record.
func (s *site) pace(k delayKey, delay time.Duration, now time.Time, record bool) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	last, seen := s.last[k]
	wait := time.Duration(0)
	if seen {
		wait = last.Add(delay).Sub(now)
	}
	if wait <= 0 || record {
		s.last[k] = now
	}
	return max(wait, 0)
}

// localFile is a robots.txt file on disk, read again when it changes.
type localFile struct {
	path    string
	cur     atomic.Pointer[parsedFile]
	checked atomic.Int64 // unix nanoseconds of the last look
	mu      sync.Mutex   // one reader at a time
	mod     time.Time
	size    int64
	err     error
}

// load reads the file if it changed since it was last read.
func (f *localFile) load(now time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.checked.Store(now.UnixNano())
	fi, err := os.Stat(f.path)
	if err != nil {
		f.err = err
		return err
	}
	if f.cur.Load() != nil && fi.ModTime().Equal(f.mod) && fi.Size() == f.size {
		return nil
	}
	fh, err := os.Open(f.path)
	if err != nil {
		f.err = err
		return err
	}
	defer fh.Close()
	// Read one byte past the limit: the parser cuts the file where it should, and
	// keeps what it read.
	body, err := io.ReadAll(io.LimitReader(fh, robots.DefaultMaxBytes+1))
	if err != nil {
		f.err = err
		return err
	}
	text := string(body)
	f.cur.Store(&parsedFile{rb: robots.ParseString(text), body: text})
	f.mod, f.size, f.err = fi.ModTime(), fi.Size(), nil
	return nil
}

// get returns the file's rules, looking for a change at most every
// FileCheckInterval. A file that cannot be read any more keeps its last rules
// (and is logged by the caller's metrics as nothing: it is the operator's file).
func (f *localFile) get(now time.Time) (*parsedFile, error) {
	// One caller looks; the others go on with the rules they have.
	if c := f.checked.Load(); now.UnixNano()-c >= int64(FileCheckInterval) && f.checked.CompareAndSwap(c, now.UnixNano()) {
		f.load(now)
	}
	p := f.cur.Load()
	if p == nil {
		return nil, fmt.Errorf("%s: %w", f.path, errNoFile)
	}
	return p, nil
}

// parsedFile is a robots.txt body and its rules.
type parsedFile struct {
	rb   *robots.Robots
	body string
}

// version is a robots.txt a site had, as the report names it.
type version struct {
	name  string
	since time.Time // when the gate first decided with it
	sha   string    // of its body
}

func newVersion(name, body string, now time.Time) *version {
	sum := sha256.Sum256([]byte(body))
	return &version{name: name, since: now, sha: hex.EncodeToString(sum[:])}
}
