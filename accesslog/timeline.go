package accesslog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/gorobots/robots"
)

// Version is one robots.txt of a Timeline.
type Version struct {
	Name string `json:"name"` // the file it was read from, or the URL fetched
	// Since is when it took effect; zero for a file in effect at every time.
	Since  time.Time      `json:"since,omitzero"`
	SHA256 string         `json:"sha256"` // of the body, so that merged reports can tell they used the same files
	Robots *robots.Robots `json:"-"`
}

// Timeline is the robots.txt of a site over time, oldest first: each version is in
// effect from its Since until the next one's.
type Timeline []Version

// NewVersion parses body as a version in effect from since (zero: always).
func NewVersion(name string, since time.Time, body []byte, opts ...robots.Option) Version {
	sum := sha256.Sum256(body)
	return Version{Name: name, Since: since, SHA256: hex.EncodeToString(sum[:]), Robots: robots.Parse(body, opts...)}
}

// snapshotDate finds the time in a snapshot's file name: 2026-11-20, 20261120,
// 2026-11-20T10:30:00Z, 2026-11-20T1030Z, 20261120T103000Z or 2026-11-20_10-30 (UTC
// unless an offset is written).
var snapshotDate = regexp.MustCompile(`(\d{4})-?(\d{2})-?(\d{2})(?:[T_ ](\d{2})[:-]?(\d{2})(?:[:-]?(\d{2}))?(Z|[+-]\d{2}:?\d{2})?)?`)

// ParseSnapshotTime returns the time written in a snapshot's file name (see
// Snapshots).
func ParseSnapshotTime(name string) (time.Time, error) {
	m := snapshotDate.FindStringSubmatch(filepath.Base(name))
	if m == nil {
		return time.Time{}, fmt.Errorf("%s: no date in the name (want 2026-11-20 or 2026-11-20T10:30:00Z)", name)
	}
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	loc := time.UTC
	if z := m[7]; z != "" && z != "Z" {
		sign := 1
		if z[0] == '-' {
			sign = -1
		}
		digits := z[1:]
		if len(digits) == 5 {
			digits = digits[:2] + digits[3:]
		}
		loc = time.FixedZone(z, sign*(n(digits[:2])*3600+n(digits[2:])*60))
	}
	t := time.Date(n(m[1]), time.Month(n(m[2])), n(m[3]), n(m[4]), n(m[5]), n(m[6]), 0, loc)
	if t.Month() != time.Month(n(m[2])) || t.Day() != n(m[3]) || n(m[4]) > 23 || n(m[5]) > 59 || n(m[6]) > 59 {
		return time.Time{}, fmt.Errorf("%s: %s is not a valid date and time", name, m[0])
	}
	return t.UTC(), nil
}

// Snapshots reads a directory of dated robots.txt files, one version each, named by
// when it took effect (robots-2026-11-20.txt, 2026-11-20T10:30:00Z.txt; see
// ParseSnapshotTime). Files whose names start with "." are ignored; any other file
// without a date in its name is an error. Two files of the same time are an error.
func Snapshots(dir string, opts ...robots.Option) (Timeline, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var tl Timeline
	for _, e := range entries {
		if e.IsDir() || e.Name()[0] == '.' {
			continue
		}
		path := filepath.Join(dir, e.Name())
		since, err := ParseSnapshotTime(e.Name())
		if err != nil {
			return nil, err
		}
		body, err := readRobots(path)
		if err != nil {
			return nil, err
		}
		tl = append(tl, NewVersion(e.Name(), since, body, opts...))
	}
	if len(tl) == 0 {
		return nil, fmt.Errorf("%s: no robots.txt snapshots", dir)
	}
	slices.SortFunc(tl, func(a, b Version) int { return a.Since.Compare(b.Since) })
	for i := 1; i < len(tl); i++ {
		if tl[i].Since.Equal(tl[i-1].Since) {
			return nil, fmt.Errorf("%s: %s and %s take effect at the same time", dir, tl[i-1].Name, tl[i].Name)
		}
	}
	return tl, nil
}

// MaxRobotsBytes bounds a robots.txt file read: four times what is parsed (crawlers
// read the first 500 KiB), as "robots check" reads one.
const MaxRobotsBytes = 4 * robots.DefaultMaxBytes

func readRobots(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > MaxRobotsBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than a robots.txt can be (%d read at most)", path, st.Size(), MaxRobotsBytes)
	}
	return os.ReadFile(path)
}

// at returns the index of the version in effect at t, or -1 before the first;
// hint is a previous answer (times in a log mostly increase).
func (tl Timeline) at(t time.Time, hint int) int {
	if hint >= 0 && hint < len(tl) && !t.Before(tl[hint].Since) && (hint+1 == len(tl) || t.Before(tl[hint+1].Since)) {
		return hint
	}
	i, _ := slices.BinarySearchFunc(tl, t, func(v Version, t time.Time) int {
		if v.Since.After(t) {
			return 1
		}
		return -1
	})
	return i - 1
}

func (tl Timeline) same(o Timeline) bool {
	return slices.EqualFunc(tl, o, func(a, b Version) bool {
		return a.Name == b.Name && a.Since.Equal(b.Since) && a.SHA256 == b.SHA256
	})
}
