package robotstag

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// page is an HTML page whose head holds the given meta tags.
func page(metas ...string) string {
	return "<!DOCTYPE html><html><head><title>t</title>" + strings.Join(metas, "") + "</head><body><p>text</p></body></html>"
}

// summary writes the rules set, in a fixed order.
func summary(r Rules) string {
	var w []string
	for _, b := range []struct {
		on   bool
		name string
	}{{r.NoIndex, "noindex"}, {r.NoFollow, "nofollow"}, {r.NoArchive, "noarchive"}, {r.NoSnippet, "nosnippet"},
		{r.NoImageIndex, "noimageindex"}, {r.NoTranslate, "notranslate"}, {r.IndexIfEmbedded, "indexifembedded"}} {
		if b.on {
			w = append(w, b.name)
		}
	}
	if r.MaxSnippet != nil {
		w = append(w, "max-snippet:"+itoa(*r.MaxSnippet))
	}
	if r.MaxImagePreview != "" {
		w = append(w, "max-image-preview:"+r.MaxImagePreview)
	}
	if r.MaxVideoPreview != nil {
		w = append(w, "max-video-preview:"+itoa(*r.MaxVideoPreview))
	}
	if !r.UnavailableAfter.IsZero() {
		w = append(w, "unavailable_after:"+r.UnavailableAfter.UTC().Format(time.RFC3339))
	}
	for _, u := range r.Unknown {
		w = append(w, "?"+u.Rule)
	}
	return strings.Join(w, " ")
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + itoa(n%10)
}

// TestGoogleExamples: the examples of Google's "Robots meta tag, data-nosnippet, and
// X-Robots-Tag specifications" page, with what the page says they do.
func TestGoogleExamples(t *testing.T) {
	tests := []struct {
		name   string
		agents []string
		header []string // X-Robots-Tag field values
		body   string
		want   string
	}{
		{"meta robots noindex", []string{"Googlebot"}, nil, page(`<meta name="robots" content="noindex">`), "noindex"},
		{"meta googlebot: Google only", []string{"Googlebot"}, nil, page(`<meta name="googlebot" content="noindex">`), "noindex"},
		{"meta googlebot: not for another crawler", []string{"Bingbot"}, nil, page(`<meta name="googlebot" content="noindex">`), ""},
		{"meta googlebot-news", []string{"Googlebot-News"}, nil, page(`<meta name="googlebot-news" content="nosnippet">`), "nosnippet"},
		// "the page is noindex, nofollow for Googlebot": robots and googlebot tags add up.
		{"robots and googlebot tags combine", []string{"Googlebot"}, nil, page(`<meta name="robots" content="nofollow">`, `<meta name="googlebot" content="noindex">`), "noindex nofollow"},
		// "the more restrictive rule applies": nosnippet over max-snippet:50.
		{"conflicting rules", []string{"Googlebot"}, nil, page(`<meta name="robots" content="max-snippet:50, nosnippet">`), "nosnippet max-snippet:50"},
		{"none is noindex, nofollow", []string{"Googlebot"}, nil, page(`<meta name="robots" content="none">`), "noindex nofollow"},
		{"previews", []string{"Googlebot"}, nil, page(`<meta name="robots" content="max-snippet:-1, max-image-preview:large, max-video-preview:-1">`), "max-snippet:-1 max-image-preview:large max-video-preview:-1"},
		{"max-snippet:0 is nosnippet", []string{"Googlebot"}, nil, page(`<meta name="robots" content="max-snippet:0">`), "nosnippet max-snippet:0"},
		{"indexifembedded", []string{"Googlebot"}, nil, page(`<meta name="googlebot" content="noindex, indexifembedded">`), "noindex indexifembedded"},
		{"case-insensitive", []string{"Googlebot"}, nil, page(`<META NAME="ROBOTS" CONTENT="NoIndex, NOFOLLOW">`), "noindex nofollow"},
		{"header noindex", []string{"Googlebot"}, []string{"noindex"}, "", "noindex"},
		// X-Robots-Tag: googlebot: nofollow / X-Robots-Tag: otherbot: noindex, nofollow.
		{"header per crawler: googlebot", []string{"Googlebot"}, []string{"googlebot: nofollow", "otherbot: noindex, nofollow"}, "", "nofollow"},
		{"header per crawler: otherbot", []string{"otherbot"}, []string{"googlebot: nofollow", "otherbot: noindex, nofollow"}, "", "noindex nofollow"},
		{"header unavailable_after", []string{"Googlebot"}, []string{"unavailable_after: 25 Jun 2010 15:00:00 PST"}, "", "unavailable_after:2010-06-25T15:00:00Z"},
		{"header RFC 850 date with its comma", []string{"Googlebot"}, []string{"unavailable_after: Wednesday, 03-Mar-21 15:00:00 GMT, noarchive"}, "", "noarchive unavailable_after:2021-03-03T15:00:00Z"},
		{"header noimageindex and image previews", []string{"Googlebot"}, []string{"noimageindex, max-image-preview:standard, max-image-preview:none"}, "", "noimageindex max-image-preview:none"},
		{"header and meta add up", []string{"Googlebot"}, []string{"notranslate"}, page(`<meta name="robots" content="noarchive">`), "noarchive notranslate"},
		{"unknown rule kept apart", []string{"Googlebot"}, []string{"noai, max-snippet:many"}, "", "?noai ?max-snippet:many"},
		{"meta after the head is not read", []string{"Googlebot"}, nil, "<html><head></head><body><meta name=robots content=noindex></body></html>", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.header {
				h.Add("X-Robots-Tag", v)
			}
			var r Rules
			var err error
			if tt.body != "" {
				r, err = Read(tt.agents, h, strings.NewReader(tt.body))
			} else {
				r, err = Read(tt.agents, h, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(r); got != tt.want {
				t.Errorf("got %q, want %q (found %+v)", got, tt.want, r.Found)
			}
		})
	}
}

// TestIndexable: noindex, or an unavailable_after that has passed.
func TestIndexable(t *testing.T) {
	h := http.Header{"X-Robots-Tag": {"unavailable_after: 2026-01-01"}}
	r := FromHeader([]string{"Googlebot"}, h)
	if !r.Indexable(time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)) || r.Indexable(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("unavailable_after: %+v", r)
	}
	if FromHeader([]string{"Googlebot"}, http.Header{"X-Robots-Tag": {"none"}}).Indexable(time.Now()) {
		t.Error("none is indexable")
	}
}
