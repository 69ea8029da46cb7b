package verdictjson

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gorobots/robots"
)

// shape is a verdict as encoding/json writes it, field for field and in order: what
// AppendFields is tested against (TestShape).
type shape struct {
	URL      string  `json:"url"`
	Input    string  `json:"input,omitempty"`
	Agent    string  `json:"agent,omitempty"`
	Allowed  bool    `json:"allowed"`
	Rule     *string `json:"rule"`
	Line     int     `json:"line"`
	Usage    *Usage  `json:"usage,omitempty"`
	Readings string  `json:"readings,omitempty"`
}

func shapeOf(v *Verdict) shape {
	s := shape{URL: v.URL, Input: v.Input, Agent: v.Agent, Allowed: v.Allowed, Line: v.Rule.Line, Readings: v.Readings}
	if v.Usage != nil {
		u := usageOf(v.Usage)
		s.Usage = &u
	}
	if v.Rule.Line != 0 {
		rule := v.Rule.String()
		s.Rule = &rule
	}
	return s
}

func TestShape(t *testing.T) {
	usage := robots.Parse([]byte("User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n")).Usage("Googlebot", "https://example.com/a")
	for _, tc := range []struct {
		name string
		v    Verdict
	}{
		{"no rule matched", Verdict{URL: "https://example.com/", Agent: "Googlebot", Decision: robots.Decision{Allowed: true}}},
		{"disallowed", Verdict{URL: "https://example.com/private/x", Agent: "Googlebot",
			Decision: robots.Decision{Rule: robots.Rule{Line: 12, Value: "/private/"}}}},
		{"allowed by a rule, input kept", Verdict{URL: "https://example.com/caf%C3%A9", Input: "https://example.com/café", Agent: "bingbot",
			Decision: robots.Decision{Allowed: true, Rule: robots.Rule{Line: 3, Allow: true, Value: "/caf%C3%A9"}}}},
		{"no agent (a batch names it once)", Verdict{URL: "https://example.com/", Decision: robots.Decision{Allowed: true}}},
		{"escaped strings", Verdict{URL: "https://example.com/\"\\<>&\u2028", Agent: "a\tb",
			Decision: robots.Decision{Rule: robots.Rule{Line: 1, Value: "/\"x\xff"}}}},
		{"usage", Verdict{URL: "https://example.com/a", Agent: "Googlebot", Decision: robots.Decision{Allowed: true}, Usage: &usage}},
		{"readings", Verdict{URL: "https://example.com/a", Agent: "Googlebot", Decision: robots.Decision{Allowed: true}, Usage: &usage,
			Readings: "readings differ: rfc9309 reads no preference"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := append(tc.v.AppendFields(nil), '}')
			var want []byte
			{
				var buf = new(jsonBuffer)
				enc := json.NewEncoder(buf)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(shapeOf(&tc.v)); err != nil {
					t.Fatal(err)
				}
				want = buf.b[:len(buf.b)-1] // without Encode's newline
			}
			if string(got) != string(want) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

type jsonBuffer struct{ b []byte }

func (w *jsonBuffer) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }

// TestAppendString: what encoding/json reads back unchanged.
func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "tab\tnl\ncr\r", "\x00\x1f", "é ü 日本", "\u2028\u2029", "bad \xff utf-8", "<script>&"} {
		t.Run(fmt.Sprintf("%q", s), func(t *testing.T) {
			var got string
			if err := json.Unmarshal(AppendString(nil, s), &got); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			want := s
			if s == "bad \xff utf-8" {
				want = "bad \ufffd utf-8"
			}
			if got != want {
				t.Errorf("round trip of %q = %q", s, got)
			}
		})
	}
}

// TestPlainPrefix compares the eight-bytes-at-a-time scan with a byte loop, at
// every position of every special byte.
func TestPlainPrefix(t *testing.T) {
	slow := func(s string) int {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				return i
			}
		}
		return len(s)
	}
	base := "https://example.com/a/b?c=d&e=f~g"
	for _, c := range []byte{0, 0x1f, ' ', '!', '"', '#', '\\', ']', 0x7f, 0x80, 0xc3, 0xff} {
		t.Run(fmt.Sprintf("%#02x", c), func(t *testing.T) {
			for i := 0; i <= len(base); i++ {
				s := base[:i] + string([]byte{c}) + base[i:]
				if got, want := PlainPrefix(s), slow(s); got != want {
					t.Errorf("PlainPrefix(%q) = %d; want %d", s, got, want)
				}
			}
		})
	}
}

// TestReadings: the file (draft-ietf-aipref-attach's grammar against Google's
// parser): ExampleBot is told train-ai=n in Google's reading, where the Content-Usage
// line does not end the group's user-agent lines, and nothing in RFC 9309's, where it
// is a rule that does; OtherBot gets the "*" group in both.
func TestReadings(t *testing.T) {
	const file = "User-Agent: *\nContent-Usage: train-ai=n\n\nUser-Agent: ExampleBot\nAllow: /\n"
	google := robots.ParseString(file)
	rfc := robots.ParseString(file, robots.WithDialect(robots.RFC9309))
	const u = "https://example.com/x"
	for _, tc := range []struct {
		name      string
		read, alt *robots.Robots
		agent     string
		want      string
	}{
		{"google, ExampleBot", google, rfc, "ExampleBot", "readings differ: rfc9309 reads no preference"},
		{"rfc9309, ExampleBot", rfc, google, "ExampleBot", "readings differ: google reads train-ai=n (line 2)"},
		{"google, OtherBot", google, rfc, "OtherBot", ""},
		{"no other reading", google, nil, "ExampleBot", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			agents := []string{tc.agent}
			if got := Readings(tc.alt, agents, u, tc.read.UsageAgents(agents, u)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
