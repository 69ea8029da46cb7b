package fetch

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorobots/robots/rsl"
)

// License is an RSL licence as the client fetched it (see Client.License).
type License struct {
	URL         string        `json:"url"`
	Status      int           `json:"status"`       // of the last response; 0 when none came
	ContentType string        `json:"content_type"` // as served; RSL's is application/rsl+xml
	Doc         *rsl.Document `json:"document"`     // nil when Err is set
	// Err says why there is no document: unreachable, not found, not an RSL document.
	Err       error     `json:"-"`
	FetchedAt time.Time `json:"fetched_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

// Limits of the licence cache: each licence is at most rsl.MaxBytes and a parsed form
// near its size, so 256 licences hold at most a few hundred megabytes in the worst case
// and, real licences being a few kilobytes, about a megabyte in practice.
const (
	// MaxLicenseLines bounds the License lines of one robots.txt whose licences are
	// fetched: a site has one or two; a file of thousands must not cost thousands of
	// requests. The others are reported, not fetched.
	MaxLicenseLines   = 10
	maxCachedLicenses = 256
	licenseErrorTTL   = 10 * time.Minute // a licence that failed is fetched again after this
)

// urlCache holds documents fetched by URL (RSL licences, tdmrep.json files), one fetch
// at a time for each, at most maxCachedLicenses of them.
type urlCache[T any] struct {
	mu sync.Mutex
	m  map[string]*urlEntry[T]
}

type urlEntry[T any] struct {
	ready   chan struct{} // closed when val and expires are set
	val     T
	expires time.Time
}

// get returns the value cached for key, or the one fetch makes (and caches until the
// time it returns), sharing one fetch among concurrent callers.
func (uc *urlCache[T]) get(ctx context.Context, key string, now time.Time, fetch func() (T, time.Time)) (T, error) {
	uc.mu.Lock()
	if uc.m == nil {
		uc.m = map[string]*urlEntry[T]{}
	}
	e := uc.m[key]
	if e != nil {
		select {
		case <-e.ready:
			if !now.Before(e.expires) {
				e = nil // expired: fetch again
			}
		default:
		}
	}
	mine := false
	if e == nil {
		uc.evict(now)
		e = &urlEntry[T]{ready: make(chan struct{})}
		uc.m[key] = e
		mine = true
	}
	uc.mu.Unlock()
	if mine {
		e.val, e.expires = fetch()
		close(e.ready)
	}
	select {
	case <-e.ready:
		return e.val, nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// evict makes room for one more entry: expired entries go first, then any finished one.
func (uc *urlCache[T]) evict(now time.Time) {
	if len(uc.m) < maxCachedLicenses {
		return
	}
	for k, e := range uc.m {
		select {
		case <-e.ready:
			if !now.Before(e.expires) {
				delete(uc.m, k)
			}
		default:
		}
	}
	for k, e := range uc.m {
		if len(uc.m) < maxCachedLicenses {
			return
		}
		select {
		case <-e.ready:
			delete(uc.m, k)
		default:
		}
	}
}

// License fetches the RSL licence at rawURL (a robots.txt License line's value) by the
// client's access method: its transport, dialer and guard, redirects followed as for
// robots.txt, at most rsl.MaxBytes read, and parses it (rsl.Parse). Licences are
// cached by URL for Cache-Control max-age within the client's TTL bounds, or the
// policy's TTL; a failure for ten minutes. Concurrent calls for one URL share a fetch.
// The error is the licence's Err, also kept in the result.
func (c *Client) License(ctx context.Context, rawURL string) (*License, error) {
	now := c.cfg.Now()
	lic, err := c.licenses.get(ctx, rawURL, now, func() (*License, time.Time) {
		l := c.fetchLicense(ctx, rawURL, now)
		return l, l.ExpiresAt
	})
	if err != nil {
		return nil, err
	}
	return lic, lic.Err
}

// ErrNoLicense is the error of a licence URL that answers neither a document nor a
// failure to retry (a 4xx, a redirect that cannot be followed).
var ErrNoLicense = errors.New("fetch: no licence at that URL")

func (c *Client) fetchLicense(ctx context.Context, rawURL string, now time.Time) *License {
	lic := &License{URL: rawURL, FetchedAt: now, ExpiresAt: now.Add(licenseErrorTTL)}
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		lic.Err = fmt.Errorf("licence URL %q is not an absolute http(s) URL", rawURL)
		return lic
	}
	if o, err := Origin(rawURL); err == nil && c.refuseLiteral(o, now) != nil {
		lic.Err = fmt.Errorf("licence %s: address refused", rawURL)
		return lic
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	f := c.getHTTP(ctx, rawURL, rsl.MaxBytes)
	lic.Status = f.status
	if f.header != nil {
		lic.ContentType = f.header.Get("Content-Type")
	}
	switch {
	case f.failed:
		lic.Err = fmt.Errorf("licence %s unreachable: %v", rawURL, f.err)
		if ctx.Err() != nil {
			lic.ExpiresAt = now // the caller gave up: nothing learnt about the licence
		}
		return lic
	case f.err != nil:
		lic.Err = fmt.Errorf("licence %s: %w: %v", rawURL, ErrNoLicense, f.err)
		return lic
	case f.status < 200 || f.status > 299:
		lic.Err = fmt.Errorf("licence %s: %w: status %d", rawURL, ErrNoLicense, f.status)
		return lic
	case f.truncated:
		lic.Err = fmt.Errorf("licence %s: %w", rawURL, rsl.ErrTooLarge)
		return lic
	}
	if mt, _, err := mime.ParseMediaType(lic.ContentType); err == nil && (mt == "text/html" || mt == "application/xhtml+xml") {
		lic.Err = fmt.Errorf("licence %s: served as %s, not %s (an error page?)", rawURL, mt, rsl.MediaType)
		return lic
	}
	doc, err := rsl.Parse(strings.NewReader(f.body))
	if err != nil {
		lic.Err = fmt.Errorf("licence %s: %w", rawURL, err)
		return lic
	}
	lic.Doc = doc
	ttl := c.cfg.Policy.TTL
	if age, ok := maxAge(f.header); ok {
		ttl = min(max(age, c.cfg.MinTTL), c.cfg.MaxTTL)
	}
	lic.ExpiresAt = now.Add(ttl)
	return lic
}

// LicenseTerms is what the RSL licences of a site say of one use of one URL: each
// licence of the robots.txt License lines with its verdict, and the verdicts combined.
type LicenseTerms struct {
	// Answer is Permitted if a licence permits the use, else Unknown if one cannot be
	// fetched or read or says nothing of the URL, else Prohibited; Unknown when there
	// is no License line.
	Answer   rsl.Answer      `json:"answer"`
	Licenses []LicenseAnswer `json:"licenses"`
}

// LicenseAnswer is one licence's verdict.
type LicenseAnswer struct {
	URL     string      `json:"url"`
	Verdict rsl.Verdict `json:"verdict"`
	Error   string      `json:"error,omitempty"` // why the licence could not be fetched or read
}

// LicenseTerms fetches the licences named by the License lines of rawURL's robots.txt
// (through the cache) and checks rawURL and q against each.
func (c *Client) LicenseTerms(ctx context.Context, rawURL string, q rsl.Query) (LicenseTerms, error) {
	res, err := c.Get(ctx, rawURL)
	if err != nil {
		return LicenseTerms{}, err
	}
	t := LicenseTerms{Licenses: []LicenseAnswer{}}
	if res.Effect != ObeyRules || res.Robots == nil {
		return t, nil
	}
	unknown, permitted, prohibited := false, false, false
	for i, lu := range res.Robots.Licenses() {
		a := LicenseAnswer{URL: lu}
		if i >= MaxLicenseLines {
			a.Error = fmt.Sprintf("not fetched: past the first %d License lines", MaxLicenseLines)
			a.Verdict = rsl.Verdict{Reason: a.Error, Licenses: []int{}, Payments: []rsl.Payment{}, Conditions: []string{}}
			unknown = true
			t.Licenses = append(t.Licenses, a)
			continue
		}
		lic, err := c.License(ctx, lu)
		if err != nil {
			if ctx.Err() != nil {
				return LicenseTerms{}, ctx.Err()
			}
			a.Error = err.Error()
			a.Verdict = rsl.Verdict{Reason: err.Error(), Licenses: []int{}, Payments: []rsl.Payment{}, Conditions: []string{}}
			unknown = true
		} else {
			a.Verdict = lic.Doc.Check(rawURL, q)
			switch a.Verdict.Answer {
			case rsl.Permitted:
				permitted = true
			case rsl.Prohibited:
				prohibited = true
			default:
				unknown = true
			}
		}
		t.Licenses = append(t.Licenses, a)
	}
	switch {
	case permitted:
		t.Answer = rsl.Permitted
	case unknown:
		t.Answer = rsl.Unknown
	case prohibited:
		t.Answer = rsl.Prohibited
	}
	return t, nil
}

// License returns what the site's RSL licences say of the use q of a response's
// content, as Usage does for Content-Usage: the licences of the robots.txt that
// decided the request, fetched by the client's access method and cached.
func (t *Transport) License(resp *http.Response, q rsl.Query) (LicenseTerms, error) {
	t.once.Do(t.init)
	if t.err != nil {
		return LicenseTerms{}, t.err
	}
	req := resp.Request
	if req == nil || req.URL == nil {
		return LicenseTerms{}, errors.New("fetch.Transport.License: the response has no request")
	}
	_, ua, err := t.agentOf(req)
	if err != nil {
		return LicenseTerms{}, err
	}
	return t.client.LicenseTerms(withUserAgent(req.Context(), ua), req.URL.String(), q)
}
