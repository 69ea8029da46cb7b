// Package robotstag reads the page-level rules of a response: its X-Robots-Tag header
// fields, optionally prefixed with a crawler's name ("X-Robots-Tag: googlebot:
// nofollow"), and the page's <meta name="robots"> tags or those named for a crawler
// (name="googlebot", name="googlebot-news"), with the rules Google documents
// (developers.google.com/search/docs/crawling-indexing/robots-meta-tag): all, noindex,
// nofollow, none, noarchive, nosnippet, max-snippet, max-image-preview,
// max-video-preview, noimageindex, notranslate, unavailable_after and indexifembedded.
//
// Rules are case-insensitive and separated by commas; a header's crawler prefix applies
// to the rules after it in that field. Where rules conflict the more restrictive one
// applies, as Google says ("max-snippet:50" and "nosnippet" is nosnippet). A rule this
// package does not know is kept in Rules.Unknown, never guessed at.
//
// These rules act on a page only when the crawler may fetch it: a noindex on a page
// robots.txt disallows is never seen ("Indexed, though blocked by robots.txt").
package robotstag

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorobots/robots/internal/htmlmeta"
)

// Rules are the rules that apply to one crawler, combined most restrictively.
type Rules struct {
	NoIndex         bool `json:"noindex"`
	NoFollow        bool `json:"nofollow"`
	NoArchive       bool `json:"noarchive"`
	NoSnippet       bool `json:"nosnippet"` // also set by max-snippet:0
	NoImageIndex    bool `json:"noimageindex"`
	NoTranslate     bool `json:"notranslate"`
	IndexIfEmbedded bool `json:"indexifembedded"`
	// MaxSnippet is the longest text snippet in characters; nil when no rule limits it
	// (max-snippet:-1 is no limit).
	MaxSnippet *int `json:"max_snippet"`
	// MaxImagePreview is "none", "standard" or "large"; "" when no rule says.
	MaxImagePreview string `json:"max_image_preview"`
	// MaxVideoPreview is the longest video preview in seconds; nil when no rule limits
	// it (-1 is no limit, 0 a static image at most).
	MaxVideoPreview *int `json:"max_video_preview"`
	// UnavailableAfter is when the page should stop being shown; zero when no rule says.
	UnavailableAfter time.Time `json:"unavailable_after,omitzero"`
	// Found are the rules read for the crawler, each with where it was; Unknown those
	// this package does not know (or whose value it cannot read).
	Found   []Found `json:"found"`
	Unknown []Found `json:"unknown"`
}

// Found is one rule as written, and where.
type Found struct {
	Source string `json:"source"` // "X-Robots-Tag", "meta robots", "meta googlebot"
	Agent  string `json:"agent,omitempty"`
	Rule   string `json:"rule"`
}

// Indexable reports whether the rules let a search engine index the page at now:
// neither noindex nor an unavailable_after that has passed.
func (r Rules) Indexable(now time.Time) bool {
	return !r.NoIndex && (r.UnavailableAfter.IsZero() || now.Before(r.UnavailableAfter))
}

// Restricted reports whether any rule restricts anything.
func (r Rules) Restricted() bool {
	return len(r.Found) > 0 && !(len(r.Found) == 1 && strings.EqualFold(r.Found[0].Rule, "all"))
}

// FromHeader returns the rules of h's X-Robots-Tag fields (canonical keys, as
// net/http keeps them) that apply to a crawler with one of the product tokens agents:
// those without a crawler prefix and those whose prefix names one of them.
func FromHeader(agents []string, h http.Header) Rules {
	r := Rules{Found: []Found{}, Unknown: []Found{}}
	r.header(agents, h)
	return r
}

// Read returns the rules of a response: its header's X-Robots-Tag fields and, when
// body is not nil, the meta tags of the HTML page it is (name="robots" and a name
// equal to one of agents, case-insensitively), at most htmlmeta.MaxBytes of it.
func Read(agents []string, h http.Header, body io.Reader) (Rules, error) {
	r := FromHeader(agents, h)
	if body == nil {
		return r, nil
	}
	metas, err := htmlmeta.Read(body)
	for _, m := range metas {
		if m.Name != "robots" && !slices.ContainsFunc(agents, func(a string) bool { return strings.EqualFold(a, m.Name) }) {
			continue
		}
		r.value("meta "+m.Name, "", m.Content, false)
	}
	return r, err
}

func (r *Rules) header(agents []string, h http.Header) {
	for _, v := range h.Values("X-Robots-Tag") {
		r.value("X-Robots-Tag", "", v, true)
	}
	// Keep only what applies to the crawler.
	keep := func(f Found) bool {
		return f.Agent == "" || slices.ContainsFunc(agents, func(a string) bool { return strings.EqualFold(a, f.Agent) })
	}
	var found, unknown []Found
	for _, f := range r.Found {
		if keep(f) {
			found = append(found, f)
		}
	}
	for _, f := range r.Unknown {
		if keep(f) {
			unknown = append(unknown, f)
		}
	}
	r.Found, r.Unknown = nonNil(found), nonNil(unknown)
	// Apply what is kept, afresh.
	applied := Rules{Found: []Found{}, Unknown: r.Unknown}
	for _, f := range r.Found {
		applied.apply(f)
	}
	*r = applied
}

func nonNil(f []Found) []Found {
	if f == nil {
		return []Found{}
	}
	return f
}

// valued are the rules that take a value after a colon.
var valued = []string{"max-snippet", "max-image-preview", "max-video-preview", "unavailable_after"}

// value reads one field value or meta content: comma-separated rules, and, in a
// header, a crawler prefix ("googlebot:") that applies to the rules after it. Rules
// whose crawler is not asked about are recorded with their agent and filtered by the
// caller (header); meta tags were filtered by name already.
func (r *Rules) value(source, agent, v string, header bool) {
	parts := strings.Split(v, ",")
	for i := 0; i < len(parts); i++ {
		item := strings.TrimSpace(parts[i])
		if item == "" {
			continue
		}
		key, rest, hasColon := strings.Cut(item, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		if header && hasColon && !slices.Contains(valued, key) && isAgentName(key) {
			agent = strings.TrimSpace(key)
			item = strings.TrimSpace(rest)
			if item == "" {
				continue
			}
			key, rest, _ = strings.Cut(item, ":")
			key = strings.ToLower(strings.TrimSpace(key))
		}
		if key == "unavailable_after" {
			// A date may hold commas ("Wednesday, 03-Mar-21 15:00:00 GMT"): take the
			// following pieces while they make a date.
			date := strings.TrimSpace(rest)
			for j := i + 1; j < len(parts) && j <= i+2; j++ {
				if _, ok := parseDate(date); ok {
					break
				}
				if _, ok := parseDate(date + "," + parts[j]); ok {
					date += "," + parts[j]
					i = j
					break
				}
			}
			item = "unavailable_after: " + strings.TrimSpace(date)
		}
		f := Found{Source: source, Agent: agent, Rule: item}
		if header {
			r.Found = append(r.Found, f) // checked and applied by header, per crawler
			continue
		}
		r.apply(f)
	}
}

// isAgentName reports whether s can be a crawler's product token (letters, digits, '-'
// and '_'), and is no rule name.
func isAgentName(s string) bool {
	if s == "" || known(s) {
		return false
	}
	for _, c := range s {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

var simple = []string{"all", "noindex", "nofollow", "none", "noarchive", "nocache", "nosnippet", "noimageindex", "notranslate", "indexifembedded"}

func known(s string) bool { return slices.Contains(simple, s) || slices.Contains(valued, s) }

// apply adds one rule, most restrictively; a rule not understood goes to Unknown.
func (r *Rules) apply(f Found) {
	key, val, _ := strings.Cut(f.Rule, ":")
	key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
	ok := true
	switch key {
	case "all":
	case "noindex":
		r.NoIndex = true
	case "nofollow":
		r.NoFollow = true
	case "none":
		r.NoIndex, r.NoFollow = true, true
	case "noarchive", "nocache": // nocache is Bing's word for noarchive
		r.NoArchive = true
	case "nosnippet":
		r.NoSnippet = true
	case "noimageindex":
		r.NoImageIndex = true
	case "notranslate":
		r.NoTranslate = true
	case "indexifembedded":
		r.IndexIfEmbedded = true
	case "max-snippet", "max-video-preview":
		n, err := strconv.Atoi(val)
		if err != nil || n < -1 {
			ok = false
			break
		}
		p := &r.MaxSnippet
		if key == "max-video-preview" {
			p = &r.MaxVideoPreview
		}
		if n >= 0 && (*p == nil || **p < 0 || n < **p) || n < 0 && *p == nil {
			*p = &n
		}
		if key == "max-snippet" && n == 0 {
			r.NoSnippet = true
		}
	case "max-image-preview":
		order := []string{"none", "standard", "large"}
		i := slices.Index(order, strings.ToLower(val))
		if i < 0 {
			ok = false
			break
		}
		if j := slices.Index(order, r.MaxImagePreview); j < 0 || i < j {
			r.MaxImagePreview = order[i]
		}
	case "unavailable_after":
		t, good := parseDate(val)
		if !good {
			ok = false
			break
		}
		if r.UnavailableAfter.IsZero() || t.Before(r.UnavailableAfter) {
			r.UnavailableAfter = t
		}
	default:
		ok = false
	}
	if ok {
		r.Found = append(r.Found, f)
	} else {
		r.Unknown = append(r.Unknown, f)
	}
}

// dateLayouts are the formats Google accepts for unavailable_after: "a widely adopted
// format including, but not limited to, RFC 822, RFC 850, and ISO 8601".
var dateLayouts = []string{
	time.RFC3339, "2006-01-02T15:04:05", "2006-01-02", time.RFC1123, time.RFC1123Z,
	time.RFC822, time.RFC822Z, time.RFC850, "Monday, 02-Jan-2006 15:04:05 MST", "2 Jan 2006 15:04:05 MST",
}

func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
