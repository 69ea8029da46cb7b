package weburl

import (
	"strings"
	"testing"
)

// TestQuickOrigin: the allocation-free origin agrees with the parsed one wherever it
// answers, and answers for the common forms.
func TestQuickOrigin(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want string // "" when quickOrigin must leave the URL to parseOrigin
	}{
		{"https://example.com/", "https://example.com"},
		{"https://example.com", "https://example.com"},
		{"http://example.com?q", "http://example.com"},
		{"http://example.com#f", "http://example.com"},
		{"https://example.com:8181/a?b#c", "https://example.com:8181"},
		{"http://my_host.example.com/a%2Fb", "http://my_host.example.com"},
		{"http://192.0.2.1:8080/x", "http://192.0.2.1:8080"},
		{"http://example.com:443/", "http://example.com:443"},
		{"http://example.com/ä?ü", "http://example.com"},
		{"HTTPS://example.com/", ""},
		{"https://Example.com/", ""},
		{"https://example.com:443/", ""},
		{"https://example.com:08181/", ""},
		{"https://example.com:65536/", ""},
		{"https://example.com:/", ""},
		{"https://example.com:1:2/", ""},
		{"http://www.xn--exmple-cua.com/", ""},
		{"http://user@example.com/", ""},
		{"http://[::1]/", ""},
		{"http:///x", ""},
		{"ftp://example.com/", ""},
		{" https://example.com/", ""},
		{"https://example.com/%zz", ""},
		{"https://example.com/%4", ""},
		{"https://example.com/a\x7f", ""},
		{"https://example.com/a\n", ""},
	} {
		t.Run(tc.url, func(t *testing.T) {
			got, ok := quickOrigin(tc.url)
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("quickOrigin(%q) = %q, %v; want %q", tc.url, got, ok, tc.want)
			}
			if ok {
				if o, err := parseOrigin(tc.url); err != nil || o != got {
					t.Errorf("parseOrigin(%q) = %q, %v; quickOrigin said %q", tc.url, o, err, got)
				}
			}
		})
	}
}

// TestPlain: the URLs Encode returns without a second look are those the WHATWG
// parser (see TestEncode) would leave as they are; the rest go the slow way, which
// may still leave them as they are.
func TestPlain(t *testing.T) {
	for _, tc := range []struct {
		name, url string
		plain     bool
	}{
		{"path and query", "https://example.com/search?q=a&b=c", true},
		{"port", "http://example.com:8080/a", true},
		{"fragment", "https://example.com/a#top", true},
		{"query keeps braces, backquote and slash", "https://example.com/a?x={y}`/z", true},
		{"fragment keeps # and ?", "https://example.com/a#b#c?d", true},
		{"escapes", "https://example.com/caf%C3%A9?q=%2F", true},
		{"dots in names", "https://example.com/a.b/..c/.d/e..", true},
		{"apostrophe in the path", "https://example.com/o'neil", true},
		{"pipe and caret", "https://example.com/a|b^c", true},
		{"no path", "https://example.com", false},
		{"query without path", "https://example.com?x", false},
		{"upper-case host", "https://Example.com/", false},
		{"default port", "https://example.com:443/", false},
		{"userinfo", "https://u@example.com/", false},
		{"punycode", "https://xn--mnchen-3ya.de/", false},
		{"IPv6", "http://[::1]/", false},
		{"ftp", "ftp://example.com/", false},
		{"space", "https://example.com/a b", false},
		{"non-ASCII", "https://example.com/café", false},
		{"path braces", "https://example.com/{x}", false},
		{"path backquote", "https://example.com/a`", false},
		{"apostrophe in the query", "https://example.com/s?y='", false},
		{"fragment quote", `https://example.com/a#"`, false},
		{"backslash", `https://example.com/a\b`, false},
		{"dot segment", "https://example.com/a/./b", false},
		{"double-dot segment", "https://example.com/a/../b", false},
		{"last dot segment", "https://example.com/a/..", false},
		{"dot segment before query", "https://example.com/.?x", false},
		{"escaped dot segment", "https://example.com/a/%2e%2E/b", false},
		{"malformed escape", "https://example.com/%zz", false},
		{"short escape", "https://example.com/%4", false},
		{"control", "https://example.com/a\x7f", false},
		{"leading space", " https://example.com/", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := isPlain(tc.url); got != tc.plain {
				t.Errorf("isPlain(%q) = %v; want %v", tc.url, got, tc.plain)
			}
			// PlainOrigin answers alike, with the origin the URL parser gives.
			origin, ok := PlainOrigin(tc.url)
			if want, _ := parseOrigin(tc.url); ok != tc.plain || ok && origin != want {
				t.Errorf("PlainOrigin(%q) = %q, %v; want %q, %v", tc.url, origin, ok, want, tc.plain)
			}
		})
	}
}

// FuzzPlain: a URL isPlain accepts is one Encode's slow way and Absolute return
// unchanged, and its origin (PlainOrigin's) is the one the URL parser gives.
func FuzzPlain(f *testing.F) {
	for _, s := range []string{"https://example.com/", "http://a.b:8080/x?y#z", "http://a.com/%41", "http://a_b.c:65535/",
		"https://example.com/a/%2e./b", "https://e.com/a?b'#c'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if origin, ok := quickOrigin(s); ok {
			if o, err := parseOrigin(s); err != nil || o != origin {
				t.Errorf("quickOrigin(%q) = %q; parseOrigin = %q, %v", s, origin, o, err)
			}
		}
		if !isPlain(s) {
			return
		}
		if enc, err := encode(s); err != nil || enc != s {
			t.Errorf("isPlain(%q), but encode gives %q, %v", s, enc, err)
		}
		if _, ok := quickOrigin(s); !ok {
			t.Errorf("isPlain(%q), but quickOrigin refuses it", s)
		}
		// What serve's batches rely on: PlainOrigin answers for Absolute and Origin.
		origin, _ := PlainOrigin(s)
		if o, err := parseOrigin(s); err != nil || o != origin || !strings.HasPrefix(s, origin) {
			t.Errorf("PlainOrigin(%q) = %q; parseOrigin = %q, %v", s, origin, o, err)
		}
		if u, note, err := Absolute(s); err != nil || u != s || note != "" {
			t.Errorf("isPlain(%q), but Absolute gives %q, %q, %v", s, u, note, err)
		}
	})
}
