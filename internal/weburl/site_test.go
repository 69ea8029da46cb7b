package weburl

import (
	"errors"
	"strings"
	"testing"
)

func TestSite(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		chosen         bool // a scheme was chosen: the note is not empty
	}{
		{"name", "example.com", "https://example.com/", true},
		{"name with path", "example.com/robots.txt", "https://example.com/robots.txt", true},
		{"name with port 443", "example.com:443", "https://example.com/", true},
		{"name with port 80", "example.com:80", "http://example.com/", true},
		{"name with another port", "example.com:8080", "http://example.com:8080/", true},
		{"IPv4 and port", "127.0.0.1:18765", "http://127.0.0.1:18765/", true},
		{"IPv4", "192.0.2.7", "http://192.0.2.7/", true},
		{"IPv6 and port", "[::1]:8080", "http://[::1]:8080/", true},
		{"localhost", "localhost:3000/x", "http://localhost:3000/x", true},
		{"name under localhost", "shop.localhost", "http://shop.localhost/", true},
		{"upper case and spaces", "  Example.COM ", "https://example.com/", true},
		{"idn", "café.example", "https://xn--caf-dma.example/", true},
		{"https URL", "https://example.com", "https://example.com/", false},
		{"http URL kept", "http://example.com/a", "http://example.com/a", false},
		{"http loopback URL", "http://127.0.0.1:18765/", "http://127.0.0.1:18765/", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, note, err := Site(tc.in)
			if err != nil {
				t.Fatalf("Site(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("Site(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if (note != "") != tc.chosen {
				t.Errorf("Site(%q): note %q, want one: %v", tc.in, note, tc.chosen)
			}
			if note != "" && !strings.Contains(note, got) {
				t.Errorf("Site(%q): note %q does not name %s", tc.in, note, got)
			}
		})
	}
}

func TestSiteErrors(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"empty", "  "},
		{"a word", "search"},
		{"a path", "/robots.txt"},
		{"bad port", "example.com:http"},
		{"port too large", "example.com:70000"},
		{"unclosed IPv6", "[::1:80"},
		{"userinfo", "me@example.com"},
		{"another scheme", "mailto:me@example.com"},
		{"scheme without host", "https://"},
		{"ftp-like scheme", "gopher://example.com/"},
		{"escape in the host that is not UTF-8", "0.0%80000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, _, err := Site(tc.in)
			if err == nil {
				t.Fatalf("Site(%q) = %q, want an error", tc.in, u)
			}
			if !errors.Is(err, ErrNotURL) {
				t.Errorf("Site(%q): %v, want ErrNotURL", tc.in, err)
			}
		})
	}
}

func TestRetry(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://example.com/", "check the name, or try http://example.com/ if the site has no HTTPS"},
		{"http://127.0.0.1:8080/", "check the address and port, or try https://127.0.0.1:8080/ if the site serves HTTPS"},
		{"ftp://example.com/", ""},
	} {
		if got := Retry(tc.in); got != tc.want {
			t.Errorf("Retry(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzSite: Site never panics, and what it returns is an absolute http, https or
// ftp URL that Encode keeps as it is (Encode is idempotent).
func FuzzSite(f *testing.F) {
	for _, s := range []string{"example.com", "127.0.0.1:80/x", "[::1]:8080", "https://a.b/c?d#e", "localhost", "a.b:99999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		u, _, err := Site(in)
		if err != nil {
			return
		}
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "ftp://") {
			t.Fatalf("Site(%q) = %q, not an absolute URL", in, u)
		}
		if again, err := Encode(u); err != nil || again != u {
			t.Fatalf("Site(%q) = %q, which Encode reads as %q, %v", in, u, again, err)
		}
	})
}

// TestAbsolute: a URL to check is read as fetch and audit read a site: typed
// without a scheme, by Site's rule, and said; with one, or a path, as Encode reads
// it; what is neither is Encode's error.
func TestAbsolute(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		chosen   bool
		fails    bool
	}{
		{"example.com:8080/x", "http://example.com:8080/x", true, false},
		{"example.com/private/a b", "https://example.com/private/a%20b", true, false},
		{"127.0.0.1:8000/", "http://127.0.0.1:8000/", true, false},
		{"https://example.com/x", "https://example.com/x", false, false},
		{"/x", "/x", false, false},
		{"mailto:a@b", "", false, true},
		{"search", "", false, true},
	} {
		u, note, err := Absolute(tc.in)
		if (err != nil) != tc.fails || u != tc.want || (note != "") != tc.chosen {
			t.Errorf("Absolute(%q) = %q, %q, %v; want %q, a note %v, an error %v", tc.in, u, note, err, tc.want, tc.chosen, tc.fails)
		}
	}
}
