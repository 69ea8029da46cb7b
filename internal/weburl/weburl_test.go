package weburl

import (
	"errors"
	"testing"
)

// Expected values follow the WHATWG URL Standard's parser: its encode sets (path:
// C0, space, " # < > ? ` { }; special query: C0, space, " # < > '; fragment: C0,
// space, " < > `), UTF-8 for non-ASCII, UTS #46 for hosts, "\" as "/" in special
// schemes, dot segments removed and default ports dropped.
func TestEncode(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"non-ASCII path", "https://example.com/café/menu", "https://example.com/caf%C3%A9/menu"},
		{"IDNA host and sharp s", "https://münchen.de/straße", "https://xn--mnchen-3ya.de/stra%C3%9Fe"},
		{"host case and default port", "HTTPS://Example.COM:443/A", "https://example.com/A"},
		{"other port kept", "http://example.com:8080/a", "http://example.com:8080/a"},
		{"IPv6 literal", "https://[::1]:8080/x", "https://[::1]:8080/x"},
		{"space in path", "https://example.com/a b", "https://example.com/a%20b"},
		{"query encoded with the special-query set", "https://example.com/s?q=café&x=a b&y='", "https://example.com/s?q=caf%C3%A9&x=a%20b&y=%27"},
		{"path set", "https://example.com/{x}<y>`\"", "https://example.com/%7Bx%7D%3Cy%3E%60%22"},
		{"fragment", "https://example.com/a#frag ment", "https://example.com/a#frag%20ment"},
		{"existing escapes kept", "https://example.com/caf%C3%A9/%zz", "https://example.com/caf%C3%A9/%zz"},
		{"lower-case escapes kept", "https://example.com/caf%c3%a9", "https://example.com/caf%c3%a9"},
		{"empty path is /", "https://example.com", "https://example.com/"},
		{"query without path", "https://example.com?x=1", "https://example.com/?x=1"},
		{"backslashes", `https:\\example.com\a\b`, "https://example.com/a/b"},
		{"dot segments", "https://example.com/a/./b/../c", "https://example.com/a/c"},
		{"encoded dot segments", "https://example.com/a/%2e%2E/b", "https://example.com/b"},
		{"trailing double dot", "https://example.com/a/b/..", "https://example.com/a/"},
		{"dots above the root", "https://example.com/../../a", "https://example.com/a"},
		{"dots in names kept", "https://example.com/a.b/..c/.d", "https://example.com/a.b/..c/.d"},
		{"surrounding space and inner newline", "  https://example.com/a\n/b ", "https://example.com/a/b"},
		{"userinfo kept", "ftp://user:pw@Example.com/x", "ftp://user:pw@example.com/x"},
		{"absolute path", "/café?x=é", "/caf%C3%A9?x=%C3%A9"},
		{"path with dots", "/a/../b", "/b"},
		// The host parser percent-decodes a host before UTS #46 reads it.
		{"escaped IDNA host", "https://caf%C3%A9.example/", "https://xn--caf-dma.example/"},
		{"plain ASCII unchanged", "https://example.com/search?q=a&b=c", "https://example.com/search?q=a&b=c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Encode(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("Encode(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}

// TestEncodeErrors: what is neither an absolute http(s)/ftp URL nor an absolute path
// is an error naming the input, never a verdict for "/".
func TestEncodeErrors(t *testing.T) {
	for _, in := range []string{
		"",
		"   ",
		"search",
		"example.com/a",
		"https://",
		"mailto:x@y",
		"javascript:alert(1)",
		"//example.com/a",
		"https://exa mple.com/",
		"http://example.com:99999/",
		// The host parser decodes a host's escapes as UTF-8, a byte that is not
		// becoming U+FFFD, which UTS #46 disallows: "domain to ASCII" fails, and so
		// does the URL (FuzzSite found "0.0%80000" encoded as a host Encode refused).
		"https://0.0%80000/",
		"https://a%EF%BF%BDb.example/",
	} {
		t.Run(in, func(t *testing.T) {
			got, err := Encode(in)
			if err == nil {
				t.Fatalf("Encode(%q) = %q, want an error", in, got)
			}
			if !errors.Is(err, ErrNotURL) {
				t.Errorf("Encode(%q) error %v does not match ErrNotURL", in, err)
			}
			if want := `"` + in + `"`; len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
				t.Errorf("Encode(%q) error %q does not start with the input", in, err)
			}
		})
	}
}

func FuzzEncode(f *testing.F) {
	for _, s := range []string{"https://example.com/café", "/a/../b", "http://[::1]/", "x:y", "https://a@b@c/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := Encode(in)
		if err != nil {
			return
		}
		// Encoding is idempotent: what a browser would request reads as itself. A path
		// is checked under a host ("/.//" is the path "//", which alone would read as a
		// scheme-relative URL).
		if out[0] == '/' {
			out = "https://h" + out
		}
		again, err := Encode(out)
		if err != nil || again != out {
			t.Fatalf("Encode(%q) = %q, then %q, %v", in, out, again, err)
		}
		for i := 0; i < len(out); i++ {
			if out[i] <= ' ' || out[i] > '~' {
				t.Fatalf("Encode(%q) = %q has byte %#x", in, out, out[i])
			}
		}
	})
}
