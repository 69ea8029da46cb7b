package fetch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
)

// What a store keeps of an origin's earlier files. Each origin's history is bounded
// by both limits; the latest version is always kept, whatever its size.
const (
	// HistoryVersions is how many versions of an origin's robots.txt a store
	// keeps, the latest included: a site that changes its file weekly keeps about
	// five months of it.
	HistoryVersions = 20
	// HistoryBytes bounds the bodies of an origin's versions together: 20 typical
	// files (a few KiB each), or four of the largest (500 KiB).
	HistoryBytes = 2 << 20
)

// A Version is one robots.txt an origin served: what a fetch that reached the
// origin found (its outcome, status and effect, and the body when the effect is
// ObeyRules), and the later fetches that found the same. A fetch that found the
// origin Unreachable makes no version: the file in effect did not change.
type Version struct {
	// N numbers the versions of an origin from 1, the first its store kept; a new
	// version is the latest's N + 1, so versions dropped by the limits leave the
	// others' numbers as they were.
	N         int       `json:"n"`
	FetchedAt time.Time `json:"fetched_at"` // the first fetch that found this file
	SeenAt    time.Time `json:"seen_at"`    // the latest fetch that found it
	Fetches   int       `json:"fetches"`    // fetches that found it
	Outcome   Outcome   `json:"outcome"`
	Status    int       `json:"status"`
	Effect    Effect    `json:"effect"`
	Truncated bool      `json:"truncated,omitempty"`
	SHA256    string    `json:"sha256"` // hex, of Body
	Body      string    `json:"-"`      // stored as base64 of its bytes, as Result's
}

// versionJSON is the stored form of a Version: the body as base64 of its bytes,
// which need not be UTF-8 (see Result.Body).
type versionJSON struct {
	*versionFields
	Body []byte `json:"body,omitempty"`
}

type versionFields Version

// MarshalJSON writes v with its body as base64 of its bytes.
func (v *Version) MarshalJSON() ([]byte, error) {
	return json.Marshal(versionJSON{versionFields: (*versionFields)(v), Body: []byte(v.Body)})
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (v *Version) UnmarshalJSON(b []byte) error {
	*v = Version{}
	j := versionJSON{versionFields: (*versionFields)(v)}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	v.Body = string(j.Body)
	return nil
}

// Result returns v as the result of a fetch of origin: what Check and the audit
// read, so that an earlier version can be decided by as the live file is.
func (v *Version) Result(origin string) *Result {
	return &Result{
		Origin: origin, RobotsURL: origin + robotsPath, Outcome: v.Outcome, Status: v.Status, Effect: v.Effect,
		Body: v.Body, Truncated: v.Truncated, BytesRead: int64(len(v.Body)), FetchedAt: v.FetchedAt,
		LastSuccess: v.SeenAt, ExpiresAt: v.SeenAt,
	}
}

// A Historian is a Store that keeps the earlier versions of each origin's
// robots.txt, within HistoryVersions and HistoryBytes per origin, as it saves the
// results of fetches. MemoryStore, boltstore and redisstore are Historians.
type Historian interface {
	Store
	// History returns the versions kept of origin, the latest first; none (and no
	// error) for an origin not fetched since the store began keeping them.
	History(ctx context.Context, origin string) ([]Version, error)
}

// AddVersion returns hist, an origin's versions the latest first, with r's fetch
// added: a new version when r found another file than the latest version, else
// the latest seen again. The versions past HistoryVersions and HistoryBytes are
// dropped, the oldest first. The second result is false when r adds nothing (it
// found the origin unreachable, or is older than the latest version); hist is
// then returned as it is. hist is not modified: stores call AddVersion on what
// they read and write back what it returns.
func AddVersion(hist []Version, r *Result) ([]Version, bool) {
	if r.Outcome == Unreachable || r.Stale {
		return hist, false
	}
	body := ""
	if r.Effect == ObeyRules {
		body = r.Body
	}
	if len(hist) > 0 {
		last := hist[0]
		if r.FetchedAt.Before(last.SeenAt) {
			return hist, false
		}
		if last.Effect == r.Effect && last.Outcome == r.Outcome && last.Truncated == r.Truncated && last.Body == body {
			out := append([]Version{last}, hist[1:]...)
			out[0].SeenAt = r.FetchedAt
			out[0].Fetches++
			out[0].Status = r.Status
			out[0].Body = body // the same bytes: a store in memory keeps the result's string alone
			return out, true
		}
	}
	sum := sha256.Sum256([]byte(body))
	v := Version{
		N: 1, FetchedAt: r.FetchedAt, SeenAt: r.FetchedAt, Fetches: 1, Outcome: r.Outcome, Status: r.Status,
		Effect: r.Effect, Truncated: r.Truncated, SHA256: hex.EncodeToString(sum[:]), Body: body,
	}
	if len(hist) > 0 {
		v.N = hist[0].N + 1
	}
	out := make([]Version, 0, min(len(hist)+1, HistoryVersions))
	out = append(out, v)
	size := int64(len(body))
	for _, h := range hist {
		if len(out) == HistoryVersions || size+int64(len(h.Body)) > HistoryBytes {
			break
		}
		out = append(out, h)
		size += int64(len(h.Body))
	}
	return out, true
}

// historySize estimates the heap hist holds, for stores bounded in bytes.
func historySize(hist []Version) int64 {
	n := int64(cap(hist)) * 200 // the struct, its hash and times
	for _, v := range hist {
		n += int64(len(v.Body))
	}
	return n
}

// History returns the versions kept of origin, the latest first.
func (s *MemoryStore) History(_ context.Context, origin string) ([]Version, error) {
	e, _ := s.entries.get(origin)
	if e == nil {
		return nil, nil
	}
	return e.hist, nil
}
