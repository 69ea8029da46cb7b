// Package robotscolly makes a colly v2 collector obey robots.txt as Google reads it,
// through package fetch: every request and every redirect is decided before it is
// sent, with the crawler's product token taken from its User-Agent, and crawl-delay
// honoured per origin if asked.
//
// The checks are colly callbacks (OnRequest and the redirect handler), not a
// transport, so that c.SetProxyFunc and c.WithTransport, which replace the
// collector's transport, cannot turn them off. Call Obey after
// c.SetRedirectHandler, if you use it: a later SetRedirectHandler replaces the
// redirect check (requests are still checked).
//
// Usage tells, for each response, what the site prefers about the use of its content
// (AI training, search, …): robots.txt's Content-Usage and Content-Signal lines
// combined with the response's own header.
package robotscolly

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gocolly/colly/v2"

	"github.com/gorobots/robots"
	"github.com/gorobots/robots/fetch"
)

// maxRedirects is how many redirects one request may follow, as colly's and
// net/http's default handlers allow.
const maxRedirects = 10

// Obey makes c decide every request by t (see fetch.Transport.Admit): a request
// robots.txt disallows, or that must not wait for its crawl-delay (t.NoWait), is
// aborted before it is sent, and refused is called with it and the reason
// (*fetch.DisallowedError, *fetch.DelayError, or the error of a robots.txt that
// could not be had); a redirect to such a URL fails the request with that error,
// which reaches c's OnError callbacks. refused may be nil.
//
// colly's own robots.txt handling is turned off (c.IgnoreRobotsTxt): it reads files
// with another library, which disagrees with Google's reading.
func Obey(c *colly.Collector, t *fetch.Transport, refused func(r *colly.Request, err error)) {
	c.IgnoreRobotsTxt = true
	c.OnRequest(func(r *colly.Request) {
		req := &http.Request{Method: r.Method, URL: r.URL, Header: *r.Headers, Host: r.Host}
		req = req.WithContext(context.Background())
		if _, err := t.Admit(req); err != nil {
			r.Abort()
			if refused != nil {
				refused(r, err)
			}
		}
	})
	c.SetRedirectHandler(func(req *http.Request, via []*http.Request) error {
		if len(via) >= maxRedirects {
			return fmt.Errorf("robotscolly: stopped after %d redirects", maxRedirects)
		}
		if req.Header.Get("User-Agent") == "" && len(via) > 0 {
			req.Header.Set("User-Agent", via[0].Header.Get("User-Agent"))
		}
		_, err := t.Admit(req)
		return err
	})
}

// IsRefused reports whether err is a refusal by robots.txt or crawl-delay.
func IsRefused(err error) bool {
	var de *fetch.DelayError
	return errors.Is(err, fetch.ErrDisallowed) || errors.As(err, &de)
}

// Usage returns what the site prefers about the use of r's content by the crawler:
// the Content-Usage and Content-Signal lines of robots.txt that apply to r's URL
// (after redirects, the last), combined most restrictively with r's own
// Content-Usage and Content-Signal headers (see fetch.Transport.Usage). Call it from
// an OnResponse callback, with the Transport given to Obey:
//
//	c.OnResponse(func(r *colly.Response) {
//		u, err := robotscolly.Usage(t, r)
//		if err == nil && u.Category(robots.TrainAI).Preference == robots.UsageDisallowed { ... }
//	})
func Usage(t *fetch.Transport, r *colly.Response) (robots.Usage, error) {
	if r.Request == nil || r.Request.URL == nil {
		return robots.Usage{}, errors.New("robotscolly.Usage: the response has no request")
	}
	req := &http.Request{Method: r.Request.Method, URL: r.Request.URL, Header: http.Header{}}
	if r.Request.Headers != nil {
		req.Header = *r.Request.Headers
	}
	resp := &http.Response{Request: req.WithContext(context.Background()), Header: http.Header{}}
	if r.Headers != nil {
		resp.Header = *r.Headers
	}
	return t.Usage(resp)
}
