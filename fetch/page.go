package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/robotstag"
	"github.com/gorobots/robots/rsl"
	"github.com/gorobots/robots/tdmrep"
)

// TDMFile is a site's /.well-known/tdmrep.json as the client fetched it.
type TDMFile struct {
	URL    string       `json:"url"`
	Status int          `json:"status"`
	File   *tdmrep.File `json:"file"` // nil when the site has none, or Err
	// Err says why a file that is there cannot be read (unreachable, not JSON).
	Err       error     `json:"-"`
	FetchedAt time.Time `json:"fetched_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

// TDMFile fetches the tdmrep.json of rawURL's origin by the client's access method
// (at most tdmrep.MaxBytes), cached by origin as licences are (License). A site without
// one (any 4xx, a redirect that cannot be followed) has a nil File and no error: it
// does not implement the protocol, and TDM reservation is unset there.
func (c *Client) TDMFile(ctx context.Context, rawURL string) (*TDMFile, error) {
	origin, err := Origin(rawURL)
	if err != nil {
		return nil, err
	}
	now := c.cfg.Now()
	tf, err := c.tdmFiles.get(ctx, origin, now, func() (*TDMFile, time.Time) {
		tf := c.fetchTDM(ctx, origin+tdmrep.Path, now)
		return tf, tf.ExpiresAt
	})
	if err != nil {
		return nil, err
	}
	return tf, tf.Err
}

func (c *Client) fetchTDM(ctx context.Context, u string, now time.Time) *TDMFile {
	tf := &TDMFile{URL: u, FetchedAt: now, ExpiresAt: now.Add(licenseErrorTTL)}
	if strings.HasPrefix(u, "ftp:") {
		return tf
	}
	if o, err := Origin(u); err == nil && c.refuseLiteral(o, now) != nil {
		tf.Err = fmt.Errorf("%s: address refused", u)
		return tf
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	f := c.getHTTP(ctx, u, tdmrep.MaxBytes)
	tf.Status = f.status
	switch {
	case f.failed:
		tf.Err = fmt.Errorf("%s unreachable: %v", u, f.err)
		if ctx.Err() != nil {
			tf.ExpiresAt = now
		}
		return tf
	case f.status < 200 || f.status > 299 || f.err != nil:
		tf.ExpiresAt = now.Add(c.cfg.Policy.TTL) // no file: the site does not implement TDMRep
		return tf
	case f.truncated:
		tf.Err = fmt.Errorf("%s: larger than %d bytes", u, tdmrep.MaxBytes)
		return tf
	}
	file, err := tdmrep.ParseFile(strings.NewReader(f.body))
	if err != nil {
		tf.Err = fmt.Errorf("%s: %w", u, err)
		return tf
	}
	tf.File = file
	ttl := c.cfg.Policy.TTL
	if age, ok := maxAge(f.header); ok {
		ttl = min(max(age, c.cfg.MinTTL), c.cfg.MaxTTL)
	}
	tf.ExpiresAt = now.Add(ttl)
	return tf
}

// Page is every signal about the use of one response's content by one crawler: what
// robots.txt lets it fetch and prefers (Content-Usage, Content-Signal, with the
// response's own fields), what the site's RSL licences say of each RSL usage, the TDM
// reservation (tdmrep.json, header, meta) and the page-level rules (X-Robots-Tag,
// robots meta tags).
type Page struct {
	URL   string       `json:"url"`
	Usage robots.Usage `json:"usage"`
	// Licenses has the RSL terms for the usages ai-train, ai-input, ai-index and
	// search, in that order; empty when robots.txt has no License line.
	Licenses []PageLicense      `json:"licenses"`
	TDM      tdmrep.Reservation `json:"tdm"`
	Rules    robotstag.Rules    `json:"rules"`
	// Problems are what could not be read (a licence, tdmrep.json, the page's HTML):
	// the signals they carry are unknown, never taken as permission.
	Problems []string `json:"problems"`
}

// PageLicense is the RSL terms for one usage.
type PageLicense struct {
	Usage rsl.Usage    `json:"usage"`
	Terms LicenseTerms `json:"terms"`
}

// pageUsages are the RSL usages Page asks about.
var pageUsages = []rsl.Usage{rsl.AITrain, rsl.AIInput, rsl.AIIndex, rsl.Search}

// Page reads every signal of a response in one call, as Usage does for
// Content-Usage: robots.txt (the copy the client holds), the site's RSL licences and
// tdmrep.json (fetched by the same access method and cached), and the response's
// header fields and, when body is not nil, the HTML page body (the bytes the crawler
// read; meta tags are looked for in its head). The crawler is the one the request was
// decided for.
func (t *Transport) Page(resp *http.Response, body []byte) (Page, error) {
	t.once.Do(t.init)
	if t.err != nil {
		return Page{}, t.err
	}
	req := resp.Request
	if req == nil || req.URL == nil {
		return Page{}, errors.New("fetch.Transport.Page: the response has no request")
	}
	agent, ua, err := t.agentOf(req)
	if err != nil {
		return Page{}, err
	}
	ctx := withUserAgent(req.Context(), ua)
	u := req.URL.String()
	p := Page{URL: u, Licenses: []PageLicense{}, Problems: []string{}}
	if p.Usage, err = t.Usage(resp); err != nil {
		return Page{}, err
	}
	res, err := t.client.Get(ctx, u)
	if err != nil {
		return Page{}, err
	}
	if res.Effect == ObeyRules && res.Robots != nil && len(res.Robots.Licenses()) > 0 {
		for _, us := range pageUsages {
			terms, err := t.client.LicenseTerms(ctx, u, rsl.Query{Usage: us})
			if err != nil {
				return Page{}, err
			}
			p.Licenses = append(p.Licenses, PageLicense{Usage: us, Terms: terms})
		}
		for _, l := range p.Licenses[0].Terms.Licenses {
			if l.Error != "" {
				p.Problems = append(p.Problems, "RSL licence "+l.URL+": "+l.Error)
			}
		}
	}
	var file tdmrep.Reservation
	tf, err := t.client.TDMFile(ctx, u)
	switch {
	case ctx.Err() != nil:
		return Page{}, ctx.Err()
	case err != nil:
		p.Problems = append(p.Problems, "tdmrep.json: "+err.Error())
	case tf.File != nil:
		file = tf.File.Lookup(u)
	}
	steps := []tdmrep.Reservation{file, tdmrep.FromHeader(resp.Header)}
	agents := []string{agent}
	if body != nil && isHTML(resp.Header) {
		meta, err := tdmrep.FromHTML(bytes.NewReader(body))
		if err != nil {
			p.Problems = append(p.Problems, "HTML: "+err.Error())
		}
		steps = append(steps, meta)
		if p.Rules, err = robotstag.Read(agents, resp.Header, bytes.NewReader(body)); err != nil {
			p.Problems = append(p.Problems, "HTML: "+err.Error())
		}
	} else {
		p.Rules = robotstag.FromHeader(agents, resp.Header)
	}
	p.TDM = tdmrep.Resolve(steps...)
	return p, nil
}

// isHTML reports whether a response is an HTML page (or says nothing of its type).
func isHTML(h http.Header) bool {
	ct := strings.ToLower(h.Get("Content-Type"))
	return ct == "" || strings.Contains(ct, "html")
}
