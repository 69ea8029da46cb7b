package robots

import (
	"encoding/json"
	"strings"
	"testing"
)

// otherCase is an API-level case of google_other_cases.jsonl.
type otherCase struct {
	conformanceCase
	API      string          `json:"api"`
	Input    string          `json:"input"`
	Expected json.RawMessage `json:"expected"`
}

type lineReport struct {
	LineNum  int    `json:"line_num"`
	TagName  string `json:"tag_name"`
	IsTypo   bool   `json:"is_typo"`
	Metadata struct {
		IsEmpty          bool `json:"is_empty"`
		HasComment       bool `json:"has_comment"`
		IsComment        bool `json:"is_comment"`
		HasDirective     bool `json:"has_directive"`
		IsAcceptableTypo bool `json:"is_acceptable_typo"`
		IsLineTooLong    bool `json:"is_line_too_long"`
		IsMissingColon   bool `json:"is_missing_colon_separator"`
	} `json:"metadata"`
}

type parseStats struct {
	ValidDirectives   *int         `json:"valid_directives"`
	UnknownDirectives *int         `json:"unknown_directives"`
	LastLineSeen      *int         `json:"last_line_seen"`
	Sitemap           *string      `json:"sitemap"`
	ParseResultsCount *int         `json:"parse_results_count"`
	Lines             []lineReport `json:"lines"`
}

// reportLine describes a Line in the terms of Google's RobotsParsingReporter.
func reportLine(l Line) lineReport {
	var r lineReport
	r.LineNum = l.Num
	r.TagName = map[Kind]string{KindUserAgent: "UserAgent", KindAllow: "Allow", KindDisallow: "Disallow",
		KindSitemap: "Sitemap", KindOther: "Unused"}[l.Kind]
	if r.TagName == "" {
		r.TagName = "Unknown"
	}
	r.IsTypo = l.Typo
	m := &r.Metadata
	m.IsEmpty = l.Kind == KindBlank && !l.Comment
	m.IsComment = l.Kind == KindBlank && l.Comment
	m.HasComment = l.Comment
	m.HasDirective = l.Kind != KindBlank && l.Kind != KindInvalid
	m.IsAcceptableTypo = l.Typo
	m.IsLineTooLong = l.TooLong
	m.IsMissingColon = l.MissingColon
	return r
}

func TestConformanceOther(t *testing.T) {
	cases := readJSONL[otherCase](t, "google_other_cases.jsonl")
	seen := map[string]int{}
	for i, c := range cases {
		seen[c.API]++
		switch c.API {
		case "GetPathParamsQuery":
			var want string
			mustJSON(t, c.Expected, &want)
			if got := pathOf(c.Input); got != want {
				t.Errorf("case %d: pathOf(%q) = %q, want %q", i, c.Input, got, want)
			}
		case "MaybeEscapePattern":
			var want string
			mustJSON(t, c.Expected, &want)
			if got := escapePattern(c.Input); got != want {
				t.Errorf("case %d: escapePattern(%q) = %q, want %q", i, c.Input, got, want)
			}
		case "RobotsMatcher::IsValidUserAgentToObey":
			var want bool
			mustJSON(t, c.Expected, &want)
			if got := validToken(c.Input); got != want {
				t.Errorf("case %d: validToken(%q) = %v, want %v", i, c.Input, got, want)
			}
		case "ParseRobotsTxt+RobotsStatsReporter", "ParseRobotsTxt+RobotsParsingReporter":
			var want parseStats
			mustJSON(t, c.Expected, &want)
			checkStats(t, i, c, want)
		default:
			t.Errorf("case %d: no test for api %q", i, c.API)
		}
	}
	if len(seen) != 5 {
		t.Errorf("apis seen: %v", seen)
	}
}

func checkStats(t *testing.T, i int, c otherCase, want parseStats) {
	t.Helper()
	perLine := c.API == "ParseRobotsTxt+RobotsParsingReporter"
	valid, unknown, last, count := 0, 0, 0, 0
	var sitemaps strings.Builder
	var lines []lineReport
	for l := range Lines(c.body(t)) {
		count++
		switch l.Kind {
		case KindUserAgent, KindAllow, KindDisallow, KindSitemap:
			valid++
			last = l.Num
		case KindOther, KindUnknown:
			unknown++
			last = l.Num
		}
		if l.Kind == KindSitemap {
			sitemaps.WriteString(l.Value)
		}
		if perLine {
			last = l.Num // the parsing reporter reports every line
			lines = append(lines, reportLine(l))
		}
	}
	check := func(name string, want *int, got int) {
		if want != nil && *want != got {
			t.Errorf("case %d (%s line %d): %s = %d, want %d", i, c.Name, c.Line, name, got, *want)
		}
	}
	check("valid_directives", want.ValidDirectives, valid)
	check("unknown_directives", want.UnknownDirectives, unknown)
	check("last_line_seen", want.LastLineSeen, last)
	check("parse_results_count", want.ParseResultsCount, count)
	if want.Sitemap != nil && *want.Sitemap != sitemaps.String() {
		t.Errorf("case %d: sitemap = %q, want %q", i, sitemaps.String(), *want.Sitemap)
	}
	for j, wl := range want.Lines {
		if j >= len(lines) {
			t.Errorf("case %d: only %d lines, want %d", i, len(lines), len(want.Lines))
			break
		}
		if lines[j] != wl {
			t.Errorf("case %d (%s line %d): line %d = %+v, want %+v", i, c.Name, c.Line, j+1, lines[j], wl)
		}
	}
}

func mustJSON(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("expected %s: %v", raw, err)
	}
}

// validToken reports whether s is a product token a crawler can obey: one or more
// of [A-Za-z_-] and nothing else.
func validToken(s string) bool {
	return s != "" && leadingToken(s) == s
}
