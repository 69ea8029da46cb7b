package robots

import (
	"slices"
	"testing"
)

// TestLicenses: RSL 1.0's License line (rslstandard.org/guide/robots-txt: "The License
// directive is global (not tied to any specific user agent)", "one or more License
// directives") is a file-level field, as sitemap is, in every dialect, and ends no
// group. The first file is the guide's example robots.txt.
func TestLicenses(t *testing.T) {
	guide := "License: https://example.com/license.xml\n\nUser-agent: Googlebot\nAllow: /\n"
	inside := "User-agent: *\nDisallow: /private/\nLicense: https://example.com/a.xml\nUser-agent: GPTBot\nDisallow: /\nlicense: https://cdn.example.net/b.xml\nLLM-Policy: https://example.com/llm.txt\n"
	for _, d := range Dialects() {
		r := ParseString(guide, WithDialect(d))
		if got := r.Licenses(); !slices.Equal(got, []string{"https://example.com/license.xml"}) {
			t.Errorf("%s: guide: Licenses() = %q", d, got)
		}
		r = ParseString(inside, WithDialect(d))
		if got := r.Licenses(); !slices.Equal(got, []string{"https://example.com/a.xml", "https://cdn.example.net/b.xml"}) {
			t.Errorf("%s: Licenses() = %q", d, got)
		}
		for _, g := range r.Groups() {
			for _, f := range g.Fields {
				if f.Name == "license" {
					t.Errorf("%s: group of line %d holds the License line %d", d, g.Line, f.Line)
				}
			}
		}
		// The License line between the groups ends nothing: GPTBot's group is its own
		// (it follows a rule), and * keeps its Disallow.
		if r.Allowed("GPTBot", "https://example.com/x") || r.Allowed("OtherBot", "https://example.com/private/x") {
			t.Errorf("%s: the License line changed a decision", d)
		}
		for _, diag := range r.Diagnostics() {
			if diag.Code == UnknownField {
				t.Errorf("%s: line %d: %s is an unknown field", d, diag.Line, diag.Code)
			}
		}
	}
}

// TestLicenseLines: Licenses finds License lines however the line is written, as every
// other field is read: after a byte order mark, white space or a CR alone, in any case,
// before a comment; without a colon only where the dialect reads such a line (Google and
// RFC 9309 read "name value"). "Licenses" is another name (License is read exactly),
// and a NUL byte ends a line's content.
func TestLicenseLines(t *testing.T) {
	body := "\xef\xbb\xbfLicense: /a\r  LICENSE:b\rlicense c\nUser-agent: *\n\tLicense: d # e\nLicenses: f\nLicense\x00: g\n"
	for _, d := range Dialects() {
		want := []string{"/a", "b", "c", "d"}
		if d.legacy() {
			want = []string{"/a", "b", "d"}
		}
		if got := ParseString(body, WithDialect(d)).Licenses(); !slices.Equal(got, want) {
			t.Errorf("%s: Licenses() = %q; want %q", d, got, want)
		}
	}
}
